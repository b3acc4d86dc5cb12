import Decimal from 'decimal.js';
import { D, DecimalInput, toDecimal, toDecimalString } from './decimal';
import { CapMathError } from './errors';

// Input guards shared by every module, so each error message names the offending field.

export function nonNegative(name: string, value: DecimalInput): Decimal {
  const d = toDecimal(value);
  if (d.isNegative() && !d.isZero()) {
    throw new CapMathError(`${name} must not be negative (got ${toDecimalString(d)})`);
  }
  return d.isZero() ? new D(0) : d;
}

export function positive(name: string, value: DecimalInput): Decimal {
  const d = toDecimal(value);
  if (d.isZero() || d.isNegative()) {
    throw new CapMathError(`${name} must be greater than zero (got ${toDecimalString(d)})`);
  }
  return d;
}

export function wholeNonNegative(name: string, value: DecimalInput): Decimal {
  const d = nonNegative(name, value);
  if (!d.isInteger()) {
    throw new CapMathError(`${name} must be a whole number (got ${toDecimalString(d)})`);
  }
  return d;
}

export function inRange(name: string, value: DecimalInput, min: number, max: number): Decimal {
  const d = toDecimal(value);
  if (d.lessThan(min) || d.greaterThan(max)) {
    throw new CapMathError(`${name} must be between ${min} and ${max} (got ${toDecimalString(d)})`);
  }
  return d;
}

/** Counts (periods, decimals places...) are small JS integers, not quantities. */
export function integerAtLeast(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new CapMathError(`${name} must be a whole number of at least ${min} (got ${value})`);
  }
  return value;
}

export function uniqueKeys(name: string, keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) {
      throw new CapMathError(`${name}: duplicate key "${key}"`);
    }
    seen.add(key);
  }
}
