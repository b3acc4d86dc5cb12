import Decimal from 'decimal.js';
import { DecimalInput } from './decimal';
import { largestRemainder } from './largest-remainder';
import { nonNegative, uniqueKeys } from './validate';

export interface WeightedRow {
  key: string;
  weight: DecimalInput;
}

export interface Allocation {
  key: string;
  quantity: Decimal;
}

/**
 * Distributes a quantity pro rata to the weights (e.g. shares of a new issuance to existing
 * holders by their holdings), in whole shares unless `decimals` says otherwise. The parts
 * always add up to exactly `quantity`; leftover shares go to the largest fractional claims.
 */
export function allocateProRata(
  quantity: DecimalInput,
  rows: readonly WeightedRow[],
  decimals = 0,
): Allocation[] {
  uniqueKeys(
    'allocation rows',
    rows.map((r) => r.key),
  );
  const total = nonNegative('quantity', quantity);
  const weights = rows.map((r) => nonNegative(`weight of "${r.key}"`, r.weight));
  const parts = largestRemainder(total, weights, decimals);
  return rows.map((r, i) => ({ key: r.key, quantity: parts[i] }));
}
