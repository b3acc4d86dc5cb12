import { CapMathError } from './errors';
import { applySplit, splitHoldings } from './splits';

const show = (r: {
  quantity: { toFixed(): string };
  fractionalRemainder: { toFixed(): string };
}) => [r.quantity.toFixed(), r.fractionalRemainder.toFixed()];

describe('applySplit', () => {
  it('multiplies a forward split exactly', () => {
    expect(show(applySplit('1000', 2, 1, { fractional: false }))).toEqual(['2000', '0']);
    expect(show(applySplit('333', '3', '2', { fractional: false }))).toEqual(['499', '0.5']);
  });

  it('rounds a reverse split down and reports the cash-out fraction', () => {
    expect(show(applySplit('1234', 1, 10, { fractional: false }))).toEqual(['123', '0.4']);
    expect(show(applySplit('7', 1, 10, { fractional: false }))).toEqual(['0', '0.7']);
  });

  it('keeps fractions when fractional shares are allowed', () => {
    expect(show(applySplit('1234', 1, 10, { fractional: true }))).toEqual(['123.4', '0']);
  });

  it('does not lose a share to a repeating quotient', () => {
    // 300 × 1/3 is exactly 100 even though 1/3 has no finite decimal expansion.
    expect(show(applySplit('300', 1, 3, { fractional: false }))).toEqual(['100', '0']);
    const r = applySplit('100', 1, 3, { fractional: false });
    expect(r.quantity.toFixed()).toBe('33');
    expect(r.fractionalRemainder.toDecimalPlaces(10).toFixed()).toBe('0.3333333333');
  });

  it('rejects impossible input', () => {
    expect(() => applySplit('-1', 2, 1, { fractional: false })).toThrow(CapMathError);
    expect(() => applySplit('1', 0, 1, { fractional: false })).toThrow(CapMathError);
    expect(() => applySplit('1', 1, 0, { fractional: false })).toThrow(CapMathError);
  });
});

describe('splitHoldings', () => {
  it('rounds each holding on its own and totals the results', () => {
    const result = splitHoldings(
      [
        { key: 'a', quantity: '15' },
        { key: 'b', quantity: '25' },
        { key: 'c', quantity: '1000' },
      ],
      1,
      10,
      { fractional: false },
    );
    expect(result.holdings.map((h) => [h.key, ...show(h)])).toEqual([
      ['a', '1', '0.5'],
      ['b', '2', '0.5'],
      ['c', '100', '0'],
    ]);
    // Per-holding rounding: 103 shares survive, not the 104 a rounded total would suggest.
    expect(result.totalQuantity.toFixed()).toBe('103');
    expect(result.totalFractionalRemainder.toFixed()).toBe('1');
  });

  it('rejects duplicate keys', () => {
    expect(() =>
      splitHoldings(
        [
          { key: 'a', quantity: '1' },
          { key: 'a', quantity: '1' },
        ],
        2,
        1,
        { fractional: false },
      ),
    ).toThrow(CapMathError);
  });
});
