import fc from 'fast-check';
import { D } from './decimal';
import { splitHoldings } from './splits';

const holdings = fc
  .array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 20 })
  .map((values) => values.map((v, i) => ({ key: `h${i}`, quantity: v.toString() })));
const ratioPart = fc.integer({ min: 1, max: 1000 });

describe('split properties', () => {
  it('new total = old total × ratio − sum of remainders', () => {
    fc.assert(
      fc.property(holdings, ratioPart, ratioPart, fc.boolean(), (rows, num, den, fractional) => {
        const result = splitHoldings(rows, num, den, { fractional });
        const oldTotal = rows.reduce((acc, r) => acc.plus(r.quantity), new D(0));
        const expected = oldTotal.times(num).div(den).minus(result.totalFractionalRemainder);
        // Exact up to the 60-digit precision of repeating quotients such as 1/3.
        expect(result.totalQuantity.minus(expected).abs().lessThan('1e-40')).toBe(true);
      }),
    );
  });

  it('whole-share splits give whole holdings and remainders below one share', () => {
    fc.assert(
      fc.property(holdings, ratioPart, ratioPart, (rows, num, den) => {
        for (const h of splitHoldings(rows, num, den, { fractional: false }).holdings) {
          expect(h.quantity.isInteger()).toBe(true);
          expect(h.fractionalRemainder.greaterThanOrEqualTo(0)).toBe(true);
          expect(h.fractionalRemainder.lessThan(1)).toBe(true);
        }
      }),
    );
  });

  it('is exact when the denominator divides into a terminating decimal', () => {
    fc.assert(
      fc.property(
        holdings,
        ratioPart,
        fc.constantFrom(1, 2, 4, 5, 8, 10, 16, 20, 25),
        (rows, num, den) => {
          const result = splitHoldings(rows, num, den, { fractional: false });
          const oldTotal = rows.reduce((acc, r) => acc.plus(r.quantity), new D(0));
          expect(result.totalQuantity.plus(result.totalFractionalRemainder).toFixed()).toBe(
            oldTotal.times(num).div(den).toFixed(),
          );
        },
      ),
    );
  });
});
