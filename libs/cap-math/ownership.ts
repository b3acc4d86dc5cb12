import Decimal from 'decimal.js';
import { D, DecimalInput } from './decimal';
import { largestRemainder } from './largest-remainder';
import { nonNegative, uniqueKeys } from './validate';

export interface ShareRow {
  key: string;
  shares: DecimalInput;
}

export interface OwnershipPercentage {
  key: string;
  percent: Decimal;
}

/**
 * Percent owned per key, rounded to `decimals` places with the largest-remainder method so
 * the column adds up to exactly 100 (a cap table that shows 99.9999% looks broken). All
 * zeros when nobody holds anything. Rows come back in input order.
 */
export function ownershipPercentages(
  rows: readonly ShareRow[],
  decimals = 4,
): OwnershipPercentage[] {
  uniqueKeys(
    'ownership rows',
    rows.map((r) => r.key),
  );
  if (rows.length === 0) {
    return [];
  }
  const shares = rows.map((r) => nonNegative(`shares of "${r.key}"`, r.shares));
  const nobodyHoldsAnything = shares.every((s) => s.isZero());
  const percents = largestRemainder(new D(nobodyHoldsAnything ? 0 : 100), shares, decimals);
  return rows.map((r, i) => ({ key: r.key, percent: percents[i] }));
}
