import Decimal from 'decimal.js';
import { D, DecimalInput, floorToWhole } from './decimal';
import { nonNegative, positive, uniqueKeys } from './validate';

export interface SplitOptions {
  /** Keep fractional shares instead of rounding each holding down to whole shares. */
  fractional: boolean;
}

export interface SplitResult {
  quantity: Decimal;
  /** The fraction of a share that does not survive the split; companies usually cash it out. */
  fractionalRemainder: Decimal;
}

/**
 * A forward (2-for-1: 2, 1) or reverse (1-for-10: 1, 10) split of one holding. Without
 * fractional shares the holding is rounded down and the lost fraction is reported, since
 * rounding up would create shares nobody paid for.
 */
export function applySplit(
  quantity: DecimalInput,
  ratioNumerator: DecimalInput,
  ratioDenominator: DecimalInput,
  options: SplitOptions,
): SplitResult {
  const q = nonNegative('quantity', quantity);
  const exact = q
    .times(positive('ratioNumerator', ratioNumerator))
    .div(positive('ratioDenominator', ratioDenominator));
  if (options.fractional) {
    return { quantity: exact, fractionalRemainder: new D(0) };
  }
  const whole = floorToWhole(exact);
  return { quantity: whole, fractionalRemainder: Decimal.max(exact.minus(whole), 0) };
}

export interface Holding {
  key: string;
  quantity: DecimalInput;
}

export interface SplitHolding extends SplitResult {
  key: string;
}

export interface SplitHoldingsResult {
  holdings: SplitHolding[];
  totalQuantity: Decimal;
  totalFractionalRemainder: Decimal;
}

/** The split applied holding by holding: rounding is per holding, never on the total. */
export function splitHoldings(
  holdings: readonly Holding[],
  ratioNumerator: DecimalInput,
  ratioDenominator: DecimalInput,
  options: SplitOptions,
): SplitHoldingsResult {
  uniqueKeys(
    'holdings',
    holdings.map((h) => h.key),
  );
  const results = holdings.map((h) => ({
    key: h.key,
    ...applySplit(h.quantity, ratioNumerator, ratioDenominator, options),
  }));
  return {
    holdings: results,
    totalQuantity: results.reduce((acc, r) => acc.plus(r.quantity), new D(0)),
    totalFractionalRemainder: results.reduce((acc, r) => acc.plus(r.fractionalRemainder), new D(0)),
  };
}
