import Decimal from 'decimal.js';
import { D, DecimalInput } from '../decimal';
import { CapMathError } from '../errors';
import { integerAtLeast, nonNegative } from '../validate';
import { AllocationType } from './schedule';

/**
 * FRACTIONAL tranches are rounded to 10 decimal places (the most an OCF Numeric can hold);
 * the last tranche absorbs the rounding so the tranches still add up exactly.
 */
export const FRACTIONAL_DECIMALS = 10;

/**
 * Splits `quantity` into `tranches` amounts by the OCF allocation type. For 18 over 4:
 * CUMULATIVE_ROUNDING 5-4-5-4, CUMULATIVE_ROUND_DOWN 4-5-4-5, FRONT_LOADED 5-5-4-4,
 * BACK_LOADED 4-4-5-5, FRONT_LOADED_TO_SINGLE_TRANCHE 6-4-4-4,
 * BACK_LOADED_TO_SINGLE_TRANCHE 4-4-4-6, FRACTIONAL 4.5 each. The amounts always add up
 * to exactly `quantity`. Whole-share types need a whole quantity.
 */
export function allocateTranches(
  quantity: DecimalInput,
  tranches: number,
  allocationType: AllocationType,
): Decimal[] {
  integerAtLeast('tranches', tranches, 1);
  const q = nonNegative('quantity', quantity);
  if (allocationType !== 'FRACTIONAL' && !q.isInteger()) {
    throw new CapMathError(
      `${allocationType} allocates whole shares; quantity ${q.toFixed()} is not whole (use FRACTIONAL)`,
      'quantity',
    );
  }
  if (allocationType === 'FRACTIONAL') {
    return fractionalTranches(q, tranches);
  }
  return wholeTranches(BigInt(q.toFixed()), tranches, allocationType).map(
    (amount) => new D(amount.toString()),
  );
}

// Tranche k is the cumulative entitlement after k tranches, rounded to 10 places, minus the
// one before; the last cumulative is the quantity itself, so the tranches add up exactly.
function fractionalTranches(quantity: Decimal, tranches: number): Decimal[] {
  const amounts: Decimal[] = [];
  let previous = new D(0);
  for (let k = 1; k <= tranches; k++) {
    const cumulative =
      k === tranches
        ? quantity
        : quantity
            .times(k)
            .div(tranches)
            .toDecimalPlaces(FRACTIONAL_DECIMALS, Decimal.ROUND_HALF_UP);
    amounts.push(cumulative.minus(previous));
    previous = cumulative;
  }
  return amounts;
}

/**
 * Whole-share types are integer problems, solved exactly in BigInt (never floating point),
 * which is several times faster than 60-digit Decimal division when projecting thousands of
 * grants. Cumulative types: tranche k is the rounded cumulative entitlement q·k/n minus the
 * previous one. Loaded types: equal tranches of ⌊q/n⌋ and the remainder (fewer shares than
 * tranches) placed by the rule.
 */
function wholeTranches(
  quantity: bigint,
  tranches: number,
  allocationType: Exclude<AllocationType, 'FRACTIONAL'>,
): bigint[] {
  const n = BigInt(tranches);
  switch (allocationType) {
    case 'CUMULATIVE_ROUNDING':
      // round half up of q·k/n is ⌊(2·q·k + n) / 2n⌋ for non-negative values.
      return fromCumulative(tranches, (k) => (2n * quantity * k + n) / (2n * n));
    case 'CUMULATIVE_ROUND_DOWN':
      return fromCumulative(tranches, (k) => (quantity * k) / n);
  }
  const base = quantity / n;
  const remainder = Number(quantity % n);
  const amounts: bigint[] = Array.from({ length: tranches }, () => base);
  switch (allocationType) {
    case 'FRONT_LOADED':
      for (let i = 0; i < remainder; i++) amounts[i] = base + 1n;
      break;
    case 'BACK_LOADED':
      for (let i = tranches - remainder; i < tranches; i++) amounts[i] = base + 1n;
      break;
    case 'FRONT_LOADED_TO_SINGLE_TRANCHE':
      amounts[0] = base + BigInt(remainder);
      break;
    case 'BACK_LOADED_TO_SINGLE_TRANCHE':
      amounts[tranches - 1] = base + BigInt(remainder);
      break;
    default:
      throw new CapMathError(
        `Unknown allocationType "${String(allocationType)}"`,
        'allocationType',
      );
  }
  return amounts;
}

function fromCumulative(tranches: number, cumulativeAfter: (k: bigint) => bigint): bigint[] {
  const amounts: bigint[] = [];
  let previous = 0n;
  for (let k = 1; k <= tranches; k++) {
    const cumulative = cumulativeAfter(BigInt(k));
    amounts.push(cumulative - previous);
    previous = cumulative;
  }
  return amounts;
}
