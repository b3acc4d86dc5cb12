import Decimal from 'decimal.js';
import { CapMathError } from './errors';

/**
 * Private Decimal constructor: 60 significant digits and half-up rounding whatever the
 * application does to the global Decimal configuration. Exponent thresholds are pushed out
 * so toString() never switches to exponent notation either.
 */
export const D = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

export type DecimalInput = string | number | Decimal;

// Plain decimal notation only: no exponent, no separators, no whitespace, no hex.
const PLAIN_DECIMAL = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

export function toDecimal(value: DecimalInput): Decimal {
  return decimalOf('value', value);
}

/** `toDecimal` for an input the caller names: the error is about `field`. */
export function decimalOf(field: string, value: DecimalInput): Decimal {
  if (typeof value === 'string') {
    if (!PLAIN_DECIMAL.test(value)) {
      throw new CapMathError(`Not a plain decimal number: "${value}"`, field);
    }
    return new D(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new CapMathError(`Not a finite number: ${value}`, field);
    }
    return new D(String(value));
  }
  if (Decimal.isDecimal(value)) {
    if (!value.isFinite()) {
      throw new CapMathError(`Not a finite number: ${value.toString()}`, field);
    }
    return new D(value);
  }
  throw new CapMathError(`Not a number: ${String(value)}`, field);
}

/** Plain notation, trailing zeros trimmed: "1200", "4.5", "0.000001"; never "-0". */
export function toDecimalString(value: Decimal): string {
  if (!value.isFinite()) {
    throw new CapMathError(`Not a finite number: ${value.toString()}`, 'value');
  }
  if (value.isZero()) {
    return '0';
  }
  // toFixed() with no argument never uses exponent notation and does not round.
  const text = value.toFixed();
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export function isWholeNumber(value: Decimal): boolean {
  return value.isFinite() && value.isInteger();
}

export function sum(values: readonly DecimalInput[]): Decimal {
  let total = new D(0);
  for (const value of values) {
    total = total.plus(toDecimal(value));
  }
  return total;
}

/**
 * Whole shares, rounded down. The value is first rounded at 40 decimal places so that a
 * quotient that is mathematically whole but came out of a 60-digit division as
 * 999.999...9 is not floored one share short.
 */
export function floorToWhole(value: Decimal): Decimal {
  return value.toDecimalPlaces(40, Decimal.ROUND_HALF_UP).floor();
}

/**
 * Texts that order non-negative decimals exactly as `comparedTo` does, for sorting many of them:
 * every value is written with the same number of places and its integer part padded to the same
 * width, so comparing two texts compares the values. A sort of 10,000 holders compares texts
 * instead of decimals (several times faster; most of a large dashboard's sort was decimal
 * comparison).
 */
export function decimalSortKeys(values: readonly Decimal[]): string[] {
  let places = 0;
  for (const v of values) {
    if (!v.isFinite() || (v.isNegative() && !v.isZero())) {
      throw new CapMathError(`Not a finite non-negative number: ${v.toString()}`, 'values');
    }
    places = Math.max(places, v.decimalPlaces());
  }
  // toFixed never uses exponent notation; with `places` it does not round either (abs: no "-0").
  const texts = values.map((v) => v.abs().toFixed(places));
  let width = 0;
  for (const t of texts) width = Math.max(width, t.length);
  return texts.map((t) => t.padStart(width, '0'));
}
