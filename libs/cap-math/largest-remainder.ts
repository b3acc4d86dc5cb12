import Decimal from 'decimal.js';
import { D } from './decimal';
import { CapMathError } from './errors';
import { integerAtLeast } from './validate';

/**
 * Hamilton's largest-remainder method: split `total` in proportion to `weights`, each part
 * a multiple of 10^-decimals, so that the parts add up to exactly `total` (which must itself
 * be such a multiple). Every part is first rounded down; the units still missing go one each
 * to the parts with the largest remainders, ties to the earlier part, so the result is
 * deterministic and each part is less than one unit away from its exact share.
 */
export function largestRemainder(
  total: Decimal,
  weights: readonly Decimal[],
  decimals: number,
): Decimal[] {
  integerAtLeast('decimals', decimals, 0);
  if (weights.length === 0) {
    throw new CapMathError('Nothing to allocate between: the list is empty', 'weights');
  }
  const unit = new D(10).pow(-decimals);
  if (!total.mod(unit).isZero()) {
    throw new CapMathError(
      `Total ${total.toFixed()} is not a multiple of ${unit.toFixed()}`,
      'total',
    );
  }
  if (weights.every((w) => w.isZero())) {
    if (total.isZero()) {
      return weights.map(() => new D(0));
    }
    throw new CapMathError(`Cannot split ${total.toFixed()} when every weight is zero`, 'weights');
  }
  // Exact integer arithmetic: weights scaled to integers, the total counted in units. Each part
  // is floor(T·w/W) units with remainder (T·w) mod W; remainders share the denominator W, so
  // they compare as integers (and BigInt keeps 10,000 rows fast, unlike decimal division).
  const scale = Math.max(...weights.map((w) => w.decimalPlaces()));
  const factor = new D(10).pow(scale);
  const scaled = weights.map((w) => BigInt(w.times(factor).toFixed(0)));
  const W = scaled.reduce((acc, w) => acc + w, 0n);
  const T = BigInt(total.div(unit).toFixed(0));
  const units = scaled.map((w) => (T * w) / W);
  const remainders = scaled.map((w) => (T * w) % W);
  const missingUnits = Number(T - units.reduce((acc, u) => acc + u, 0n));
  const byRemainder = remainders
    .map((remainder, index) => ({ index, remainder }))
    .sort((a, b) =>
      a.remainder === b.remainder ? a.index - b.index : a.remainder < b.remainder ? 1 : -1,
    );
  for (let i = 0; i < missingUnits; i++) units[byRemainder[i].index] += 1n;
  // Units to a decimal by moving the point in the text: no Decimal multiplication per part.
  return units.map((u) => new D(withPoint(u, decimals)));
}

/** `units` × 10^-decimals as decimal text. */
function withPoint(units: bigint, decimals: number): string {
  if (units < 0n) return `-${withPoint(-units, decimals)}`;
  if (decimals === 0) return units.toString();
  const digits = units.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
