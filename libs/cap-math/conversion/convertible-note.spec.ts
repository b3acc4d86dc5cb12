import { CapMathError } from '../errors';
import { convertNote, ConvertibleNoteInput } from './convertible-note';

// Hand-computed: $500,000 at 6% simple interest, actual/365, for exactly 365 days accrues
// $30,000, so $530,000 converts. 10,000,000 fully diluted shares before the round.
const note: ConvertibleNoteInput = {
  principal: '500000',
  annualRate: '0.06',
  interestType: 'simple',
  dayCount: 'actual/365',
  issueDate: '2023-01-01',
  conversionDate: '2024-01-01',
  preMoneyFullyDilutedShares: '10000000',
  standardPreferredPrice: '1.25',
  valuationCap: '8000000',
  discount: '0.2',
};

const show = (c: ReturnType<typeof convertNote>) => [
  c.method,
  c.conversionPrice.toFixed(),
  c.shares.toFixed(),
  c.accruedInterest.toFixed(),
  c.conversionAmount.toFixed(),
];

describe('convertNote', () => {
  it('converts principal and interest at the cap price when it is lowest ($8M / 10M = $0.80)', () => {
    expect(show(convertNote(note))).toEqual(['cap', '0.8', '662500', '30000', '530000']);
  });

  it('converts at the discount price when it is lowest ($1.25 × 0.8 = $1.00 < $1.50)', () => {
    expect(show(convertNote({ ...note, valuationCap: '15000000' }))).toEqual([
      'discount',
      '1',
      '530000',
      '30000',
      '530000',
    ]);
  });

  it('converts at the round price without cap or discount', () => {
    expect(show(convertNote({ ...note, valuationCap: undefined, discount: undefined }))).toEqual([
      'price',
      '1.25',
      '424000',
      '30000',
      '530000',
    ]);
  });

  it('uses compound interest and 30/360 when the note says so: 100,000 × 1.08² = 116,640', () => {
    const c = convertNote({
      ...note,
      principal: '100000',
      annualRate: '0.08',
      interestType: 'compound',
      dayCount: '30/360',
      issueDate: '2022-01-01',
      conversionDate: '2024-01-01',
      valuationCap: undefined,
      discount: '0.2',
    });
    expect(show(c)).toEqual(['discount', '1', '116640', '16640', '116640']);
  });

  it('rounds shares down and can round the price', () => {
    const c = convertNote({ ...note, valuationCap: '7000000', priceDecimals: 4 });
    // $7M / 10M = $0.70; 530,000 / 0.7 = 757,142.857...
    expect([c.conversionPrice.toFixed(), c.shares.toFixed()]).toEqual(['0.7', '757142']);
  });

  it('rejects impossible input', () => {
    expect(() => convertNote({ ...note, principal: '0' })).toThrow(CapMathError);
    expect(() => convertNote({ ...note, conversionDate: '2022-12-31' })).toThrow(CapMathError);
    expect(() => convertNote({ ...note, preMoneyFullyDilutedShares: '0' })).toThrow(CapMathError);
    expect(() => convertNote({ ...note, annualRate: '-0.06' })).toThrow(CapMathError);
  });
});
