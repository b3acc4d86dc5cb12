import type Decimal from 'decimal.js';
import { compareDates, toDecimal } from '../../../libs/cap-math';
import { available } from '../ledger/incentives/plan-reservation';
import { outstanding, vestedQuantity } from '../ledger/incentives/holding-figures';
import { CONVERTIBLE_TYPES, EXERCISABLE_TYPES } from '../ledger/incentive-types';
import type { HoldingState, LedgerState, PoolState, SecurityState } from '../ledger/ledger-state';

const ZERO = toDecimal(0);

/**
 * The cap table as it stood at the end of one day, whichever way it was read (the current
 * tables, or the log replayed): what the dashboard, the models, conversions and the plan
 * dashboard start from. The figures below are computed from it one way for all of them.
 */
export interface Position {
  asOf: string;
  /**
   * Classes (deleted ones too, in the order they were created), plans, pools, grants, warrants,
   * notes and SAFEs, and vesting schedules. Shareholdings are in `shares`, not here.
   */
  state: LedgerState;
  /** Active shares by member, then by class: live classes, positive quantities only. */
  shares: Map<string, Map<string, Decimal>>;
}

/**
 * A state (a replay of the log) as a position: its active shares summed by member and class,
 * its shareholdings and share blocks dropped (a position kept by the models' cache holds none).
 */
export function positionOf(state: LedgerState, asOf: string): Position {
  const shares = new Map<string, Map<string, Decimal>>();
  for (const h of state.shareholdings.values()) {
    if (h.status === 'active') addShares(shares, state, h.memberId, h.securityId, h.quantity);
  }
  state.shareholdings.clear();
  state.blocks.clear();
  return { asOf, state, shares };
}

/** Adds active shares to a position's `shares`: those of live classes, when positive. */
export function addShares(
  shares: Position['shares'],
  state: LedgerState,
  memberId: string,
  securityId: string,
  quantity: Decimal,
): void {
  const security = state.securities.get(securityId);
  if (!security || security.deleted || !quantity.gt(0)) return;
  const byClass = shares.get(memberId) ?? new Map<string, Decimal>();
  byClass.set(securityId, (byClass.get(securityId) ?? ZERO).plus(quantity));
  shares.set(memberId, byClass);
}

/** A grant or warrant outstanding on a date. */
export interface OutstandingOption {
  holding: HoldingState;
  /** Granted less exercised and cancelled. */
  outstanding: Decimal;
}

/** The classes not deleted, most senior first, then in the order they were created. */
export function liveClasses(p: Position): SecurityState[] {
  return [...p.state.securities.values()]
    .filter((s) => !s.deleted)
    .sort((a, b) => b.seniority - a.seniority);
}

/** Each member's active shares, all classes together (as issued, not as converted). */
export function sharesByMember(p: Position): Map<string, Decimal> {
  const result = new Map<string, Decimal>();
  for (const [member, byClass] of p.shares) {
    let total = ZERO;
    for (const quantity of byClass.values()) total = total.plus(quantity);
    result.set(member, total);
  }
  return result;
}

/** Whether a grant or warrant has expired by `date` (it may still be exercised on its expiration date). */
export const expiredOn = (h: HoldingState, date: string): boolean =>
  !!h.terms.expirationDate && compareDates(date, h.terms.expirationDate) > 0;

/**
 * Active grants and warrants with shares outstanding and not expired on `on` (the position's
 * date unless a caller asks about the day after, as a financing does).
 */
export function outstandingOptions(p: Position, on = p.asOf): OutstandingOption[] {
  const result: OutstandingOption[] = [];
  for (const h of p.state.holdings.values()) {
    if (h.status !== 'active' || !EXERCISABLE_TYPES.has(h.type) || expiredOn(h, on)) continue;
    const left = outstanding(h);
    if (left.gt(0)) result.push({ holding: h, outstanding: left });
  }
  return result;
}

/**
 * The part of a grant vested on the position's date and still outstanding: vested less what was
 * exercised or cancelled, never below zero nor above what is outstanding. (Exercises come out of
 * the vested part; an active grant has nothing cancelled, a cancellation ends it.)
 */
export function vestedOutstanding(p: Position, h: HoldingState): Decimal {
  const left = outstanding(h);
  const vested = vestedQuantity(p.state, h, p.asOf).minus(h.exercised).minus(h.cancelled);
  return vested.lt(0) ? ZERO : vested.gt(left) ? left : vested;
}

/** The live pools of live plans, in the order they were created (one plan's, with `planId`). */
export function livePools(p: Position, planId?: string): PoolState[] {
  return [...p.state.pools.values()].filter((po) => {
    if (po.deleted || (planId !== undefined && po.planId !== planId)) return false;
    const plan = p.state.plans.get(po.planId);
    return !!plan && !plan.deleted;
  });
}

/** Reserved and not granted (returned grants count again), over the live plans' pools. */
export function poolAvailable(p: Position): Decimal {
  return livePools(p).reduce((total, po) => total.plus(available(po)), ZERO);
}

/** Active convertible notes and SAFEs, in the order they were issued. */
export function activeConvertibles(p: Position): HoldingState[] {
  return [...p.state.holdings.values()].filter(
    (h) => h.status === 'active' && CONVERTIBLE_TYPES.has(h.type),
  );
}

/** The company's capitalization before a financing: what notes and SAFEs convert on. */
export interface Capitalization {
  /** Issued shares of every live class, as converted to common (issued × conversionRatio). */
  issuedShares: Decimal;
  /** Outstanding grants and warrants not expired on the financing date. */
  outstandingOptions: Decimal;
  /** Available (reserved, ungranted) shares of the live plans' pools. */
  unissuedOptionPool: Decimal;
}

/**
 * The capitalization a financing on `date` converts on, from the position just before it (the
 * day before for a conversion; the date itself for the dashboard's preview, the same figure
 * when nothing else happens that day).
 */
export function capitalization(p: Position, date: string): Capitalization {
  let issuedShares = ZERO;
  for (const s of liveClasses(p))
    issuedShares = issuedShares.plus(s.issued.times(s.conversionRatio));
  return {
    issuedShares,
    outstandingOptions: outstandingOptions(p, date).reduce((t, o) => t.plus(o.outstanding), ZERO),
    unissuedOptionPool: poolAvailable(p),
  };
}
