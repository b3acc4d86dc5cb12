import fc from 'fast-check';
import { D } from './decimal';
import { fullyDilutedByHolder } from './fully-diluted';
import { ownershipPercentages } from './ownership';
import { allocateProRata } from './pro-rata';

// Share counts: whole or with up to 6 decimals, from zero to a trillion.
const shares = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
  .map(([units, scale]) => new D(units.toString()).div(new D(10).pow(scale)).toFixed());

const rowsWithSomeShares = fc
  .array(shares, { minLength: 1, maxLength: 30 })
  .filter((values) => values.some((v) => v !== '0'))
  .map((values) => values.map((v, i) => ({ key: `h${i}`, shares: v })));

describe('ownership properties', () => {
  it('percentages sum to exactly 100', () => {
    fc.assert(
      fc.property(rowsWithSomeShares, fc.integer({ min: 0, max: 8 }), (rows, decimals) => {
        const total = ownershipPercentages(rows, decimals).reduce(
          (acc, r) => acc.plus(r.percent),
          new D(0),
        );
        expect(total.toFixed()).toBe('100');
      }),
    );
  });

  it('each percentage is within 10^-decimals of the exact share', () => {
    fc.assert(
      fc.property(rowsWithSomeShares, fc.integer({ min: 0, max: 8 }), (rows, decimals) => {
        const total = rows.reduce((acc, r) => acc.plus(r.shares), new D(0));
        const unit = new D(10).pow(-decimals);
        ownershipPercentages(rows, decimals).forEach((r, i) => {
          const exact = new D(rows[i].shares).times(100).div(total);
          expect(r.percent.minus(exact).abs().lessThan(unit)).toBe(true);
          expect(r.percent.mod(unit).isZero()).toBe(true);
        });
      }),
    );
  });

  it('pro-rata allocation conserves the quantity and never goes negative', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 9n }), { minLength: 1, maxLength: 25 }),
        (quantity, weights) => {
          const parts = allocateProRata(
            quantity.toString(),
            weights.map((w, i) => ({ key: `h${i}`, weight: w.toString() })),
          );
          const total = parts.reduce((acc, p) => acc.plus(p.quantity), new D(0));
          expect(total.toFixed()).toBe(quantity.toString());
          expect(parts.every((p) => p.quantity.isInteger() && !p.quantity.isNegative())).toBe(true);
        },
      ),
    );
  });

  it('per-holder fully diluted shares add up to the fully diluted total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(shares, shares), { minLength: 1, maxLength: 20 }),
        shares,
        (positions, pool) => {
          const holders = positions.map(([issued, options], i) => ({
            key: `h${i}`,
            issued,
            options,
          }));
          const expected = positions
            .flat()
            .concat(pool)
            .reduce((acc, v) => acc.plus(v), new D(0));
          const rows = fullyDilutedByHolder(holders, pool);
          const total = rows.reduce((acc, r) => acc.plus(r.shares), new D(0));
          expect(total.toFixed()).toBe(expected.toFixed());
        },
      ),
    );
  });
});
