import { CapMathError } from '../errors';
import { convertPreMoneySafe, PreMoneySafeInput } from './pre-money-safe';

/*
 * Numerical examples of YC's original (pre-money) "Safe Primer", as republished by
 * FundersClub. Series A: $1,000,000 at a $10,000,000 pre-money valuation; 11,000,000 fully
 * diluted shares before the financing, including a 1,000,000-share pool adopted with it. The
 * primer prices the Series A at $0.909 and rounds safe prices ($0.72727, $0.4545); the
 * `priceDecimals` option reproduces that rounding, full precision is the default.
 */
const seriesA = { preMoneyCapitalization: '11000000', standardPreferredPrice: '0.909' };
const show = (c: ReturnType<typeof convertPreMoneySafe>) => [
  c.method,
  c.conversionPrice.toFixed(),
  c.shares.toFixed(),
];

describe('convertPreMoneySafe — YC Safe Primer examples', () => {
  it('cap and discount ($100,000, $8M cap, 85% discount rate): 137,500 shares at the cap price $0.72727', () => {
    const input: PreMoneySafeInput = {
      ...seriesA,
      purchaseAmount: '100000',
      valuationCap: '8000000',
      discount: '0.15',
    };
    // Discount price 0.909 × 0.85 = $0.77265 loses to 8,000,000 / 11,000,000 = $0.727272...
    const exact = convertPreMoneySafe(input);
    expect(exact.method).toBe('cap');
    expect(exact.conversionPrice.toFixed(10)).toBe('0.7272727273');
    expect(exact.shares.toFixed()).toBe('137500');
    expect(show(convertPreMoneySafe({ ...input, priceDecimals: 5 }))).toEqual([
      'cap',
      '0.72727',
      '137500',
    ]);
  });

  it("cap, no discount ($100,000, $5M cap): 220,022 shares at the primer's $0.4545, 220,000 at full precision", () => {
    const input: PreMoneySafeInput = {
      ...seriesA,
      purchaseAmount: '100000',
      valuationCap: '5000000',
    };
    expect(show(convertPreMoneySafe({ ...input, priceDecimals: 4 }))).toEqual([
      'cap',
      '0.4545',
      '220022',
    ]);
    expect(convertPreMoneySafe(input).shares.toFixed()).toBe('220000');
  });

  it('discount, no cap ($20,000, 80% discount rate, Series AA at $0.19): 131,578 shares at $0.152', () => {
    expect(
      show(
        convertPreMoneySafe({
          purchaseAmount: '20000',
          discount: '0.2',
          preMoneyCapitalization: '10500000',
          standardPreferredPrice: '0.19',
        }),
      ),
    ).toEqual(['discount', '0.152', '131578']);
  });
});

describe('convertPreMoneySafe — from the definitions', () => {
  it('converts at the round price when the round is priced below the cap and there is no discount', () => {
    expect(
      show(
        convertPreMoneySafe({
          purchaseAmount: '50000',
          valuationCap: '20000000',
          preMoneyCapitalization: '10000000',
          standardPreferredPrice: '1.25',
        }),
      ),
    ).toEqual(['price', '1.25', '40000']);
  });

  it('keeps fractional shares when asked', () => {
    const c = convertPreMoneySafe({
      purchaseAmount: '100',
      preMoneyCapitalization: '1000',
      standardPreferredPrice: '3',
      fractional: true,
    });
    expect(c.shares.toFixed(4)).toBe('33.3333');
  });

  it('rejects impossible input', () => {
    const ok: PreMoneySafeInput = { ...seriesA, purchaseAmount: '1000' };
    expect(() => convertPreMoneySafe({ ...ok, purchaseAmount: '0' })).toThrow(CapMathError);
    expect(() => convertPreMoneySafe({ ...ok, preMoneyCapitalization: '0' })).toThrow(CapMathError);
    expect(() => convertPreMoneySafe({ ...ok, standardPreferredPrice: '-1' })).toThrow(
      CapMathError,
    );
    expect(() => convertPreMoneySafe({ ...ok, discount: '1.2' })).toThrow(CapMathError);
    expect(() => convertPreMoneySafe({ ...ok, priceDecimals: -1 })).toThrow(CapMathError);
    expect(() =>
      convertPreMoneySafe({ ...ok, standardPreferredPrice: '0.0001', priceDecimals: 2 }),
    ).toThrow(CapMathError);
  });
});
