import { CapMathError } from './errors';
import {
  inRange,
  integerAtLeast,
  nonNegative,
  positive,
  uniqueKeys,
  wholeNonNegative,
} from './validate';

describe('input guards', () => {
  it('nonNegative accepts zero and positives, normalises -0, and names the field', () => {
    expect(nonNegative('shares', '0').toFixed()).toBe('0');
    expect(nonNegative('shares', '-0').isNegative()).toBe(false);
    expect(nonNegative('shares', '2.5').toFixed()).toBe('2.5');
    expect(() => nonNegative('shares', '-1')).toThrow(
      new CapMathError('shares must not be negative (got -1)', 'shares'),
    );
  });

  it('positive rejects zero', () => {
    expect(positive('price', '0.01').toFixed()).toBe('0.01');
    expect(() => positive('price', '0')).toThrow('price must be greater than zero (got 0)');
  });

  it('wholeNonNegative rejects fractions', () => {
    expect(wholeNonNegative('quantity', '10').toFixed()).toBe('10');
    expect(() => wholeNonNegative('quantity', '10.5')).toThrow(
      'quantity must be a whole number (got 10.5)',
    );
  });

  it('inRange checks both bounds inclusively', () => {
    expect(inRange('percent', '100', 0, 100).toFixed()).toBe('100');
    expect(inRange('percent', '0', 0, 100).toFixed()).toBe('0');
    expect(() => inRange('percent', '100.01', 0, 100)).toThrow(CapMathError);
    expect(() => inRange('percent', '-0.01', 0, 100)).toThrow(CapMathError);
  });

  it('integerAtLeast rejects fractions, NaN and small values', () => {
    expect(integerAtLeast('totalPeriods', 1, 1)).toBe(1);
    expect(() => integerAtLeast('totalPeriods', 0, 1)).toThrow(
      'totalPeriods must be a whole number of at least 1 (got 0)',
    );
    expect(() => integerAtLeast('totalPeriods', 1.5, 1)).toThrow(CapMathError);
    expect(() => integerAtLeast('totalPeriods', NaN, 1)).toThrow(CapMathError);
  });

  it('uniqueKeys rejects duplicates', () => {
    expect(() => uniqueKeys('rows', ['a', 'b'])).not.toThrow();
    expect(() => uniqueKeys('rows', ['a', 'b', 'a'])).toThrow('rows: duplicate key "a"');
  });
});
