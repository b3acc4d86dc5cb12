import type Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { ZERO } from '../rules';
import { LedgerRuleError, LedgerState, PlanState, PoolState, SecurityState } from '../ledger-state';

/**
 * A plan reserves shares of its class (they leave the class's unissued balance); its pools split
 * that reservation; a grant takes from its pool's available shares; a cancelled grant returns to
 * its pool or is retired from the plan (and the class's reservation).
 */

/** A pool's shares not granted (cancelled grants returned to it count again). */
export const available = (po: PoolState): Decimal =>
  po.sharesReserved.minus(po.granted).plus(po.returned);

/** Granted from a pool and neither exercised nor cancelled. */
export const outstandingOfPool = (po: PoolState): Decimal =>
  po.granted.minus(po.exercised).minus(po.cancelled);

/** What a plan still holds back of its class. */
export const outstandingReservation = (pl: PlanState): Decimal =>
  pl.sharesReserved.minus(pl.exercised).minus(pl.retired);

/** Σ of the plan's pools plus `more` must stay within the plan's reservation. */
export function assertPoolsFit(pl: PlanState, pools: PoolState[], more: Decimal, strict: boolean) {
  const total = sumOf(pools.map((x) => x.sharesReserved)).plus(more);
  if (strict && total.gt(pl.sharesReserved)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `plan ${pl.name} reserves ${toDecimalString(pl.sharesReserved)} shares, less than its pools' ${toDecimalString(total)}`,
    );
  }
}

/** The class has `quantity` unissued shares to hold back for a plan. */
export function assertReservable(s: SecurityState, quantity: Decimal) {
  const free = s.authorized.minus(s.issued).minus(s.reserved);
  if (quantity.gt(free)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `class ${s.name} has ${toDecimalString(free)} unissued shares, less than ${toDecimalString(quantity)} to reserve`,
    );
  }
}

/** Holds back shares of the class for a plan, out of its unissued balance. */
export function reserve(state: LedgerState, s: SecurityState, quantity: Decimal, strict: boolean) {
  if (strict) assertReservable(s, quantity);
  s.reserved = s.reserved.plus(quantity);
  state.put('securities', s);
}

export function nonNegative(value: string, name: string): Decimal {
  const d = toDecimal(value);
  if (d.lt(0)) throw new LedgerRuleError('invalid', `${name} must not be negative`);
  return d;
}

export const sumOf = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), ZERO);
