import Decimal from 'decimal.js';
import { D } from '../decimal';
import { CapMathError } from '../errors';

/**
 * Exact payouts are turned into integer weights at this many decimal places: far below a
 * cent, far above the last-digit noise of 60-digit arithmetic (an exact 150 computed as
 * 149.99…9 is 150 again at 20 places).
 */
export const WEIGHT_DECIMALS = 20;

const POWERS: bigint[] = [1n];

/** 10^n as a BigInt (n ≥ 0). */
export function pow10(n: number): bigint {
  while (POWERS.length <= n) POWERS.push(POWERS[POWERS.length - 1] * 10n);
  return POWERS[n];
}

/**
 * The largest-remainder (Hamilton) method of `largestRemainder` (libs/cap-math/largest-
 * remainder.ts), on integers, for the waterfall's tens of thousands of rows whose weights are
 * integers already (share counts, cents): `T` units split in proportion to the weights, each
 * part rounded down, and the units still missing handed one each to the largest remainders
 * (ties to the earlier row). The parts add up to `T` exactly and each is less than one unit
 * from its exact share T·w/W.
 */
export function apportionUnits(T: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) {
    if (T === 0n) return [];
    throw new CapMathError(`Cannot split ${T} units between nothing`, 'weights');
  }
  let W = 0n;
  for (const w of weights) {
    if (w < 0n) {
      throw new CapMathError('Cannot split in proportion to a negative weight', 'weights');
    }
    W += w;
  }
  if (W === 0n) {
    if (T === 0n) return weights.map(() => 0n);
    throw new CapMathError(`Cannot split ${T} units when every weight is zero`, 'weights');
  }
  const units: bigint[] = new Array(weights.length);
  const remainders: bigint[] = new Array(weights.length);
  let missing = T;
  for (let i = 0; i < weights.length; i++) {
    const product = T * weights[i];
    units[i] = product / W;
    remainders[i] = product % W;
    missing -= units[i];
  }
  if (missing > 0n) {
    const order: number[] = [];
    for (let i = 0; i < weights.length; i++) if (remainders[i] > 0n) order.push(i);
    order.sort((a, b) =>
      remainders[a] === remainders[b] ? a - b : remainders[a] < remainders[b] ? 1 : -1,
    );
    // Σ remainders = missing × W, and each remainder < W: at least `missing` are above zero.
    for (let i = 0; missing > 0n; i++, missing--) units[order[i]] += 1n;
  }
  return units;
}

/** Rounded half up to `decimals` places, as an integer count of 10^-decimals. */
export function toUnits(value: Decimal, decimals: number): bigint {
  const text = value.toFixed(decimals, Decimal.ROUND_HALF_UP);
  return BigInt(decimals > 0 ? text.replace('.', '') : text);
}

/** `units` × 10^-decimals as plain decimal text, trailing zeros trimmed (as toDecimalString). */
export function unitsText(units: bigint, decimals: number): string {
  if (units < 0n) return `-${unitsText(-units, decimals)}`;
  if (decimals === 0) return units.toString();
  const digits = units.toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${digits.slice(0, -decimals)}.${fraction}` : digits.slice(0, -decimals);
}

/** `units` × 10^-decimals as a Decimal. */
export function fromUnits(units: bigint, decimals: number): Decimal {
  if (decimals === 0 || units < 0n) return new D(unitsText(units, decimals));
  // Trailing zeros need no trimming here: the Decimal is the same.
  const digits = units.toString().padStart(decimals + 1, '0');
  return new D(`${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`);
}
