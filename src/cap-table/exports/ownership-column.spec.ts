import fc from 'fast-check';
import { ownershipPercentages, sum, toDecimal } from '../../../libs/cap-math';
import { OwnershipColumn } from './ownership-column';

/** Quantities as the database gives them: whole, or with up to 10 decimals. */
const quantity = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 0, max: 10 }))
  .map(([units, scale]) => toDecimal(units.toString()).div(toDecimal(10).pow(scale)).toFixed());

const column = (quantities: string[]) => {
  const c = new OwnershipColumn();
  for (const q of quantities) c.add(q);
  c.finish();
  return quantities.map((_, i) => c.percent(i));
};

describe('OwnershipColumn', () => {
  it('gives what ownershipPercentages gives, row for row', () => {
    fc.assert(
      fc.property(fc.array(quantity, { minLength: 1, maxLength: 60 }), (quantities) => {
        const expected = ownershipPercentages(
          quantities.map((q, i) => ({ key: String(i), shares: q })),
        ).map((p) => p.percent.toFixed(4));
        expect(column(quantities)).toEqual(expected);
      }),
    );
  });

  it('adds up to exactly 100, with ties going to the earlier row', () => {
    const percents = column(['1', '1', '1']);
    expect(percents).toEqual(['33.3334', '33.3333', '33.3333']);
    expect(sum(percents.map((p) => toDecimal(p))).toFixed()).toBe('100');
  });

  it('writes 4 decimals, 100.0000 for a single row', () => {
    expect(column(['12.5'])).toEqual(['100.0000']);
    expect(column(['3', '1'])).toEqual(['75.0000', '25.0000']);
  });

  // Its speed is the CSV export's bench figure (npm run bench), not a timed test.
  it('sums 100,000 rows to exactly 100', () => {
    const quantities = Array.from({ length: 100_000 }, (_, i) =>
      String(100 + ((i * 7919) % 10_000)),
    );
    const percents = column(quantities);
    expect(percents).toHaveLength(100_000);
    expect(sum(percents.map((p) => toDecimal(p))).toFixed()).toBe('100');
  });

  it('refuses text that is not a quantity', () => {
    expect(() => new OwnershipColumn().add('1e5')).toThrow('not a quantity');
    expect(() => new OwnershipColumn().add('-1')).toThrow('not a quantity');
  });
});
