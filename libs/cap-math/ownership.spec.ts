import { D } from './decimal';
import { CapMathError } from './errors';
import { ownershipPercentages } from './ownership';

const percents = (rows: { key: string; shares: string }[], decimals?: number) =>
  ownershipPercentages(rows, decimals).map((r) => `${r.key}=${r.percent.toFixed()}`);

describe('ownershipPercentages', () => {
  it('computes a plain cap table', () => {
    expect(
      percents([
        { key: 'founder-a', shares: '4625000' },
        { key: 'founder-b', shares: '4625000' },
        { key: 'pool', shares: '750000' },
      ]),
    ).toEqual(['founder-a=46.25', 'founder-b=46.25', 'pool=7.5']);
  });

  it('rounds to 4 places by default and still sums to exactly 100', () => {
    const rows = percents([
      { key: 'a', shares: '1' },
      { key: 'b', shares: '1' },
      { key: 'c', shares: '1' },
    ]);
    expect(rows).toEqual(['a=33.3334', 'b=33.3333', 'c=33.3333']);
  });

  it('gives the missing unit to the largest remainder', () => {
    expect(
      percents(
        [
          { key: 'a', shares: '2' },
          { key: 'b', shares: '1' },
        ],
        2,
      ),
    ).toEqual(['a=66.67', 'b=33.33']);
    expect(
      percents(
        [
          { key: 'a', shares: '1' },
          { key: 'b', shares: '1' },
          { key: 'c', shares: '1' },
        ],
        0,
      ),
    ).toEqual(['a=34', 'b=33', 'c=33']);
  });

  it('returns all zeros when nobody holds anything, and [] for no rows', () => {
    expect(
      percents([
        { key: 'a', shares: '0' },
        { key: 'b', shares: '0' },
      ]),
    ).toEqual(['a=0', 'b=0']);
    expect(ownershipPercentages([])).toEqual([]);
  });

  it('keeps zero holders at zero', () => {
    expect(
      percents([
        { key: 'a', shares: '0' },
        { key: 'b', shares: '5' },
      ]),
    ).toEqual(['a=0', 'b=100']);
  });

  it('accepts Decimal shares', () => {
    const [row] = ownershipPercentages([{ key: 'solo', shares: new D('12.5') }]);
    expect(row.percent.toFixed()).toBe('100');
  });

  it('rejects negative shares, duplicate keys and bad decimals', () => {
    expect(() => ownershipPercentages([{ key: 'a', shares: '-1' }])).toThrow(CapMathError);
    expect(() =>
      ownershipPercentages([
        { key: 'a', shares: '1' },
        { key: 'a', shares: '2' },
      ]),
    ).toThrow(CapMathError);
    expect(() => ownershipPercentages([{ key: 'a', shares: '1' }], 1.5)).toThrow(CapMathError);
  });
});
