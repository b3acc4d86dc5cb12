import { D } from '../decimal';
import { CapMathError } from '../errors';
import { convertNote } from './convertible-note';
import { convertInFinancing, FinancingInput, NoteInstrument } from './financing';
import { convertPostMoneySafes } from './post-money-safe';
import { convertPreMoneySafe } from './pre-money-safe';

// $500,000 at 6% simple, actual/365, a year before the round: $530,000 converts. 10,000,000
// shares before the round (9,000,000 issued as converted, 600,000 options, 400,000 pool).
const capitalization = {
  issuedShares: '9000000',
  outstandingOptions: '600000',
  unissuedOptionPool: '400000',
};
const note: NoteInstrument = {
  key: 'note',
  kind: 'note',
  principal: '500000',
  annualRate: '0.06',
  interestType: 'simple',
  dayCount: 'actual/365',
  interestFrom: '2023-01-01',
  valuationCap: '8000000',
  discount: '0.2',
};
const round = (convertibles: FinancingInput['convertibles'], more: Partial<FinancingInput> = {}) =>
  convertInFinancing({
    capitalization,
    date: '2024-01-01',
    standardPreferredPrice: '1.25',
    convertibles,
    ...more,
  });
const show = (c: ReturnType<typeof convertInFinancing>[number]) => [
  c.key,
  c.method,
  c.conversionPrice.toFixed(),
  c.shares.toFixed(),
  c.conversionAmount.toFixed(),
];

describe('convertInFinancing', () => {
  it('a note: principal and interest since interestFrom, at the cap price on the capitalization ($8M / 10M = $0.80)', () => {
    expect(round([note]).map(show)).toEqual([['note', 'cap', '0.8', '662500', '530000']]);
    const alone = convertNote({
      ...note,
      issueDate: note.interestFrom,
      conversionDate: '2024-01-01',
      preMoneyFullyDilutedShares: '10000000',
      standardPreferredPrice: '1.25',
    });
    expect(round([note])[0].shares.toFixed()).toBe(alone.shares.toFixed());
  });

  it('a note with interest left unpaid by an earlier repayment: it converts too, at the same price', () => {
    const [c] = round([{ ...note, unpaidInterest: '1000' }]);
    expect(show(c)).toEqual(['note', 'cap', '0.8', '663750', '531000']);
    // LLC units keep the fraction.
    const [units] = round([{ ...note, unpaidInterest: '1' }], { fractional: true });
    expect(units.shares.toFixed()).toBe('662501.25');
  });

  it('a pre-money SAFE on the capitalization alone, as convertPreMoneySafe', () => {
    const safe = {
      key: 'pre',
      kind: 'pre_money_safe' as const,
      purchaseAmount: '100000',
      valuationCap: '5000000',
    };
    const alone = convertPreMoneySafe({
      purchaseAmount: '100000',
      valuationCap: '5000000',
      preMoneyCapitalization: '10000000',
      standardPreferredPrice: '1.25',
    });
    expect(round([safe]).map(show)).toEqual([
      ['pre', 'cap', '0.5', alone.shares.toFixed(), '100000'],
    ]);
  });

  it('notes and pre-money SAFEs do not count one another; post-money SAFEs count them, and each other', () => {
    const pre = {
      key: 'pre',
      kind: 'pre_money_safe' as const,
      purchaseAmount: '100000',
      valuationCap: '5000000',
    };
    const a = {
      key: 'a',
      kind: 'post_money_safe' as const,
      purchaseAmount: '200000',
      valuationCap: '4000000',
    };
    const b = {
      key: 'b',
      kind: 'post_money_safe' as const,
      purchaseAmount: '800000',
      valuationCap: '8000000',
    };
    const all = round([a, note, b, pre]);
    // In the order asked.
    expect(all.map((c) => c.key)).toEqual(['a', 'note', 'b', 'pre']);
    expect(show(all[1])).toEqual(show(round([note])[0]));
    expect(show(all[3])).toEqual(show(round([pre])[0]));
    const joint = convertPostMoneySafes({
      capitalization: {
        ...capitalization,
        otherConvertingShares: all[1].shares.plus(all[3].shares),
      },
      standardPreferredPrice: '1.25',
      safes: [
        { key: 'a', purchaseAmount: '200000', valuationCap: '4000000' },
        { key: 'b', purchaseAmount: '800000', valuationCap: '8000000' },
      ],
    });
    expect(
      [all[0], all[2]].map((c) => [c.key, c.shares.toFixed(), c.conversionAmount.toFixed()]),
    ).toEqual(
      joint.conversions.map((c, i) => [c.key, c.shares.toFixed(), i ? '800000' : '200000']),
    );
  });

  it('otherConvertingShares (converted earlier in the same financing) count for the post-money SAFEs only', () => {
    const a = {
      key: 'a',
      kind: 'post_money_safe' as const,
      purchaseAmount: '200000',
      valuationCap: '4000000',
    };
    const more = { capitalization: { ...capitalization, otherConvertingShares: '1000000' } };
    expect(round([a], more)[0].shares.gt(round([a])[0].shares)).toBe(true);
    expect(show(round([note], more)[0])).toEqual(show(round([note])[0]));
  });

  it('a pool increase made for the round: pre-money SAFEs count it, notes when it is in the pre-money, post-money SAFEs never', () => {
    const pre = {
      key: 'pre',
      kind: 'pre_money_safe' as const,
      purchaseAmount: '100000',
      valuationCap: '5000000',
    };
    const post = {
      key: 'post',
      kind: 'post_money_safe' as const,
      purchaseAmount: '200000',
      valuationCap: '4000000',
    };
    // 10,000,000 + 2,000,000 new pool shares. In the pre-money: the note at $8M / 12,000,000 =
    // $0.6666... → 530,000 × 1.5 = 795,000; the SAFE at $5M / 12,000,000 → 240,000.
    const inPreMoney = { poolIncrease: { shares: '2000000', inPreMoney: true } };
    expect(round([note, pre], inPreMoney).map((c) => [c.key, c.shares.toFixed()])).toEqual([
      ['note', '795000'],
      ['pre', '240000'],
    ]);
    // Outside it (it dilutes the new investors too): the note's base is 10,000,000 again.
    const outside = { poolIncrease: { shares: '2000000', inPreMoney: false } };
    expect(round([note, pre], outside).map(show)).toEqual([
      show(round([note])[0]),
      ['pre', 'cap', new D(5000000).div(12000000).toFixed(), '240000', '100000'],
    ]);
    // The post-money SAFE's Company Capitalization leaves the increase out.
    expect(show(round([post], inPreMoney)[0])).toEqual(show(round([post])[0]));
  });

  it("priceDecimals rounds the notes' and pre-money SAFEs' prices; a post-money SAFE keeps its exact price", () => {
    const pre = {
      key: 'pre',
      kind: 'pre_money_safe' as const,
      purchaseAmount: '100000',
      valuationCap: '5000000',
    };
    const post = {
      key: 'post',
      kind: 'post_money_safe' as const,
      purchaseAmount: '200000',
      discount: '0.15',
    };
    // $8M / 12,000,000 → $0.6667: 794,960.25 → 794,960; $5M / 12,000,000 → $0.4167: 239,980.
    // The post-money SAFE at $1.1111 × 0.85 = $0.944435, not $0.9444.
    const more = {
      poolIncrease: { shares: '2000000', inPreMoney: true },
      priceDecimals: 4,
      standardPreferredPrice: '1.1111',
    };
    expect(round([note, pre, post], more).map(show)).toEqual([
      ['note', 'cap', '0.6667', '794960', '530000'],
      ['pre', 'cap', '0.4167', '239980', '100000'],
      ['post', 'discount', '0.944435', '211766', '200000'],
    ]);
  });

  it('refuses what the conversions refuse: no capitalization, one key twice', () => {
    const empty = { capitalization: { issuedShares: '0' } };
    expect(() => round([note], empty)).toThrow(CapMathError);
    expect(() => round([note, note])).toThrow(CapMathError);
  });
});
