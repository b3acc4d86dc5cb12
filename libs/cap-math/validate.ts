import Decimal from 'decimal.js';
import { D, decimalOf, DecimalInput, toDecimalString } from './decimal';
import { CapMathError } from './errors';

// Input guards shared by every module: each error is about the named field, and its message
// names it too.

export function nonNegative(name: string, value: DecimalInput): Decimal {
  const d = decimalOf(name, value);
  if (d.isNegative() && !d.isZero()) {
    throw new CapMathError(`${name} must not be negative (got ${toDecimalString(d)})`, name);
  }
  return d.isZero() ? new D(0) : d;
}

export function positive(name: string, value: DecimalInput): Decimal {
  const d = decimalOf(name, value);
  if (d.isZero() || d.isNegative()) {
    throw new CapMathError(`${name} must be greater than zero (got ${toDecimalString(d)})`, name);
  }
  return d;
}

export function wholeNonNegative(name: string, value: DecimalInput): Decimal {
  const d = nonNegative(name, value);
  if (!d.isInteger()) {
    throw new CapMathError(`${name} must be a whole number (got ${toDecimalString(d)})`, name);
  }
  return d;
}

export function inRange(name: string, value: DecimalInput, min: number, max: number): Decimal {
  const d = decimalOf(name, value);
  if (d.lessThan(min) || d.greaterThan(max)) {
    throw new CapMathError(
      `${name} must be between ${min} and ${max} (got ${toDecimalString(d)})`,
      name,
    );
  }
  return d;
}

/** Counts (periods, decimals places...) are small JS integers, not quantities. */
export function integerAtLeast(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new CapMathError(
      `${name} must be a whole number of at least ${min} (got ${value})`,
      name,
    );
  }
  return value;
}

export function uniqueKeys(name: string, keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) {
      throw new CapMathError(`${name}: duplicate key "${key}"`, name);
    }
    seen.add(key);
  }
}
