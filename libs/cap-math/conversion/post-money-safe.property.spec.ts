import fc from 'fast-check';
import { D } from '../decimal';
import { convertPostMoneySafes } from './post-money-safe';

const money = (min: number, max: number) => fc.integer({ min, max }).map(String);

const safe = fc.record({
  purchaseAmount: money(10_000, 2_000_000),
  valuationCap: fc.option(money(5_000_000, 100_000_000), { nil: undefined }),
  discount: fc.option(fc.constantFrom('0.1', '0.15', '0.2', '0.25'), { nil: undefined }),
});

// The safes' cap fractions must leave room for everyone else, or no solution exists.
const capFractions = (safes: { purchaseAmount: string; valuationCap?: string }[]) =>
  safes.reduce(
    (acc, s) => (s.valuationCap ? acc.plus(new D(s.purchaseAmount).div(s.valuationCap)) : acc),
    new D(0),
  );

const round = fc
  .record({
    issuedShares: money(1_000_000, 20_000_000),
    price: fc.integer({ min: 1, max: 500 }).map((cents) => new D(cents).div(100).toFixed()),
    safes: fc.array(safe, { minLength: 1, maxLength: 6 }),
  })
  .map((r) => ({
    ...r,
    safes: r.safes.map((s) => ({ ...s, valuationCap: s.valuationCap ?? '50000000' })),
  }))
  .filter((r) => capFractions(r.safes).lessThan('0.95'));

const roundWithUncapped = fc
  .tuple(round, fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }))
  .map(([r, uncapped]) => ({
    ...r,
    safes: r.safes.map((s, i) => (uncapped[i] ? { ...s, valuationCap: undefined } : s)),
  }));

describe('post-money safe properties', () => {
  it("solves the fixed point: C = base + every safe's shares, each at its lowest price", () => {
    fc.assert(
      fc.property(roundWithUncapped, ({ issuedShares, price, safes }) => {
        const result = convertPostMoneySafes({
          capitalization: { issuedShares },
          standardPreferredPrice: price,
          safes: safes.map((s, i) => ({ ...s, key: `s${i}` })),
          fractional: true,
        });
        const C = result.companyCapitalization;
        const total = result.conversions.reduce(
          (acc, c) => acc.plus(c.shares),
          new D(issuedShares),
        );
        expect(total.minus(C).abs().lessThan('1e-30')).toBe(true);
        result.conversions.forEach((c, i) => {
          const terms = safes[i];
          const roundPrice = new D(price).times(new D(1).minus(terms.discount ?? 0));
          const options = [roundPrice];
          if (terms.valuationCap) options.push(new D(terms.valuationCap).div(C));
          const lowest = options.reduce((a, b) => (b.lessThan(a) ? b : a));
          expect(c.conversionPrice.minus(lowest).abs().lessThan('1e-30')).toBe(true);
          expect(
            c.shares.times(c.conversionPrice).minus(terms.purchaseAmount).abs().lessThan('1e-25'),
          ).toBe(true);
        });
      }),
    );
  });

  it('a safe converting at its cap owns exactly purchase amount / cap of Company Capitalization', () => {
    fc.assert(
      fc.property(
        // A price far above any cap price, so every safe converts at its cap.
        round.map((r) => ({ ...r, price: '1000' })),
        ({ issuedShares, price, safes }) => {
          const result = convertPostMoneySafes({
            capitalization: { issuedShares },
            standardPreferredPrice: price,
            safes: safes.map((s, i) => ({ ...s, key: `s${i}` })),
            fractional: true,
          });
          result.conversions.forEach((c, i) => {
            expect(c.method).toBe('cap');
            const ownership = c.shares.div(result.companyCapitalization);
            const expected = new D(safes[i].purchaseAmount).div(safes[i].valuationCap ?? 0);
            expect(ownership.minus(expected).abs().lessThan('1e-30')).toBe(true);
          });
        },
      ),
    );
  });
});
