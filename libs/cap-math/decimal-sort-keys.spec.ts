import fc from 'fast-check';
import { D, decimalSortKeys } from './decimal';
import { CapMathError } from './errors';

// Non-negative decimals of any size and scale: zero, huge, tiny, long fractions, ties.
const decimal = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 30 }))
  .map(([units, scale]) => new D(units.toString()).div(new D(10).pow(scale)));

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

describe('decimalSortKeys', () => {
  it('orders any non-negative decimals exactly as comparedTo does', () => {
    fc.assert(
      fc.property(fc.array(decimal, { minLength: 1, maxLength: 40 }), (values) => {
        const keys = decimalSortKeys(values);
        for (let i = 0; i < values.length; i++) {
          for (let j = 0; j < values.length; j++) {
            const byKey = keys[i] < keys[j] ? -1 : keys[i] > keys[j] ? 1 : 0;
            expect(byKey).toBe(sign(values[i].comparedTo(values[j])));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('ties equal values written differently, and orders across widths and scales', () => {
    const keys = decimalSortKeys(
      ['10', '10.000', '9.9999999999999', '100', '0', '0.0000000000000000001'].map((v) => new D(v)),
    );
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2] < keys[0]).toBe(true);
    expect(keys[0] < keys[3]).toBe(true);
    expect(keys[4] < keys[5]).toBe(true);
    expect(new Set(keys.map((k) => k.length)).size).toBe(1);
    // Negative zero sorts as zero.
    expect(decimalSortKeys([new D('-0'), new D(0)])).toEqual(['0', '0']);
  });

  it('refuses negative and non-finite values', () => {
    expect(() => decimalSortKeys([new D(-1)])).toThrow(CapMathError);
    expect(() => decimalSortKeys([new D(NaN)])).toThrow(CapMathError);
    expect(() => decimalSortKeys([new D(Infinity)])).toThrow(CapMathError);
  });
});
