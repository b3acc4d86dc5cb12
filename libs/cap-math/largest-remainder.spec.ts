import { D } from './decimal';
import { CapMathError } from './errors';
import { largestRemainder } from './largest-remainder';

const ds = (...values: string[]) => values.map((v) => new D(v));
const text = (values: { toFixed(): string }[]) => values.map((v) => v.toFixed());

describe('largestRemainder', () => {
  it('gives the leftover units to the largest remainders', () => {
    // 10 split 1:1:1 → 3.33 each, one unit left; 7 split 5:3 → 4.375 / 2.625.
    expect(text(largestRemainder(new D(10), ds('1', '1', '1'), 0))).toEqual(['4', '3', '3']);
    expect(text(largestRemainder(new D(7), ds('5', '3'), 0))).toEqual(['4', '3']);
    expect(text(largestRemainder(new D(100), ds('1', '2', '3', '4'), 0))).toEqual([
      '10',
      '20',
      '30',
      '40',
    ]);
  });

  it('breaks ties by position, not by chance', () => {
    expect(text(largestRemainder(new D(2), ds('1', '1', '1'), 0))).toEqual(['1', '1', '0']);
  });

  it('works in decimal units', () => {
    expect(text(largestRemainder(new D(1), ds('1', '1', '1'), 2))).toEqual([
      '0.34',
      '0.33',
      '0.33',
    ]);
  });

  it('returns zeros for a zero total over zero weights, and refuses anything else', () => {
    expect(text(largestRemainder(new D(0), ds('0', '0'), 0))).toEqual(['0', '0']);
    expect(() => largestRemainder(new D(5), ds('0', '0'), 0)).toThrow(CapMathError);
    expect(() => largestRemainder(new D(5), [], 0)).toThrow(CapMathError);
    expect(() => largestRemainder(new D('5.5'), ds('1'), 0)).toThrow(CapMathError);
    expect(() => largestRemainder(new D(5), ds('1'), -1)).toThrow(CapMathError);
  });
});
