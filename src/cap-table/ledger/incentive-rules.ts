import type Decimal from 'decimal.js';
import {
  accruedInterest,
  CapMathError,
  compareDates,
  toDecimal,
  toDecimalString,
  vestedOn,
  type VestingDayOfMonth,
  type VestingSchedule,
} from '../../../libs/cap-math';
import { EXERCISABLE_TYPES, fractionOf } from './incentive-types';
import type { ExercisePayload, HoldingRecord } from './incentive-types';
import {
  addShareholding,
  assertIssuable,
  assertLegends,
  found,
  issue,
  positive,
  security,
} from './rules';
import {
  HoldingState,
  LedgerRuleError,
  LedgerState,
  PlanState,
  PoolState,
  SecurityState,
  VestingScheduleState,
} from './ledger-state';

export const ZERO = toDecimal(0);

/**
 * What the incentive transactions (./transactions) share. A plan reserves shares of its class
 * (they leave the class's unissued balance); its pools split that reservation; a grant takes
 * from its pool's available shares; exercising turns reserved shares into issued ones; a
 * cancelled grant returns to its pool or is retired from the plan (and the class's reservation).
 * Warrants and conversions issue from the unissued balance like any issuance.
 */

/** A grant or warrant may be exercised as `x` says: vested, in time, its request pending. */
export function validateExercise(state: LedgerState, x: ExercisePayload) {
  const h = holding(state, x.holdingId);
  const quantity = positive(x.quantity, 'quantity');
  assertExercisable(state, h, quantity, x.date);
  if (x.requestId) {
    const r = found(state.requests, x.requestId, 'exercise request');
    if (r.status !== 'pending' || r.holdingId !== h.id) {
      throw new LedgerRuleError('conflict', `the exercise request is ${r.status}`);
    }
  }
  const s = security(state, h.securityId ?? '');
  assertLegends(state, x.legendIds);
  if (!h.poolId) assertIssuable(s, quantity);
}

export function exercise(state: LedgerState, x: ExercisePayload, strict: boolean) {
  const h = holding(state, x.holdingId);
  const quantity = positive(x.quantity, 'quantity');
  if (x.requestId) {
    const r = found(state.requests, x.requestId, 'exercise request');
    r.status = 'approved';
    state.put('requests', r);
  }
  const s = security(state, h.securityId ?? '');
  if (h.poolId) {
    // A plan's grant becomes shares out of the plan's reservation.
    const po = pool(state, h.poolId);
    const pl = plan(state, po.planId);
    po.exercised = po.exercised.plus(quantity);
    pl.exercised = pl.exercised.plus(quantity);
    s.reserved = s.reserved.minus(quantity);
    s.issued = s.issued.plus(quantity);
    state.put('pools', po);
    state.put('plans', pl);
    state.put('securities', s);
  } else {
    issue(state, s, quantity, strict);
  }
  addShareholding(state, s, {
    id: x.shareholdingId,
    memberId: h.memberId,
    securityId: s.id,
    quantity,
    pricePerShare: h.terms.exercisePrice ?? null,
    issueDate: x.date,
    legendIds: x.legendIds,
    consideration: x.paymentMethod ? `exercise (${x.paymentMethod})` : 'exercise',
  });
  h.exercised = h.exercised.plus(quantity);
  if (outstanding(h).isZero()) {
    h.status = 'exercised';
    closePendingRequests(state, h.id);
  }
  state.put('holdings', h);
}

/** A grant that can no longer be exercised leaves no request pending. */
export function closePendingRequests(state: LedgerState, holdingId: string) {
  for (const r of state.requests.values()) {
    if (r.holdingId === holdingId && r.status === 'pending') {
      r.status = 'cancelled';
      state.put('requests', r);
    }
  }
}

export function addHolding(
  state: LedgerState,
  record: HoldingRecord,
  quantity: Decimal | null,
  strict: boolean,
) {
  if (strict && state.holdings.has(record.id)) {
    throw new LedgerRuleError('conflict', `holding ${record.id} exists`);
  }
  const isNote = record.type === 'convertible_note';
  state.put('holdings', {
    ...record,
    status: 'active',
    quantity,
    exercised: ZERO,
    cancelled: ZERO,
    principalOutstanding: isNote ? positive(record.terms.principal ?? '', 'principal') : null,
    accruedUnpaid: ZERO,
    accruedThrough: isNote ? (record.terms.issueDate ?? null) : null,
    interestPaid: ZERO,
    conversion: null,
  });
}

/** Granted (or warranted) and neither exercised nor cancelled. */
export const outstanding = (h: HoldingState): Decimal =>
  h.quantity ? h.quantity.minus(h.exercised).minus(h.cancelled) : ZERO;

/** A pool's shares not granted (cancelled grants returned to it count again). */
export const available = (po: PoolState): Decimal =>
  po.sharesReserved.minus(po.granted).plus(po.returned);

/** Granted from a pool and neither exercised nor cancelled. */
export const outstandingOfPool = (po: PoolState): Decimal =>
  po.granted.minus(po.exercised).minus(po.cancelled);

/** What a plan still holds back of its class. */
export const outstandingReservation = (pl: PlanState): Decimal =>
  pl.sharesReserved.minus(pl.exercised).minus(pl.retired);

/** The quantity of a grant vested on `date` (all of it without a schedule). */
export function vestedQuantity(state: LedgerState, h: HoldingState, date: string): Decimal {
  if (!h.quantity) return ZERO;
  if (!h.vestingScheduleId) return h.quantity;
  const v = schedule(state, h.vestingScheduleId);
  const start = h.terms.vestingStartDate ?? h.terms.grantDate ?? date;
  try {
    // Closed form: a list of grants asks this twice per grant, whatever the schedule's length.
    return vestedOn(
      { schedule: toVestingSchedule(v), quantity: h.quantity, vestingStartDate: start },
      date,
    );
  } catch (err) {
    if (err instanceof CapMathError) throw new LedgerRuleError('invalid', err.message, err.field);
    throw err;
  }
}

/** What the holder may exercise on `date`: vested (or all, if early exercise is allowed), less what was exercised or cancelled. */
export function exercisable(state: LedgerState, h: HoldingState, date: string): Decimal {
  if (!h.quantity || h.status !== 'active') return ZERO;
  const vested = h.terms.earlyExercisable ? h.quantity : vestedQuantity(state, h, date);
  const left = vested.minus(h.exercised).minus(h.cancelled);
  return left.gt(0) ? left : ZERO;
}

export const toVestingSchedule = (v: VestingScheduleState): VestingSchedule => ({
  totalPeriods: v.totalPeriods,
  periodLength: v.periodLength,
  periodType: v.periodType,
  cliffPeriods: v.cliffPeriods,
  allocationType: v.allocationType,
  ...(v.vestingDayOfMonth ? { vestingDayOfMonth: v.vestingDayOfMonth as VestingDayOfMonth } : {}),
  ...(v.acceleration ? { acceleration: v.acceleration } : {}),
});

/** Interest a note owes on `date`: accrued and unpaid, plus accrued since on what is outstanding. */
export function interestOwed(h: HoldingState, date: string, strict = true): Decimal {
  if (!h.principalOutstanding || !h.accruedThrough) return ZERO;
  if (compareDates(date, h.accruedThrough) < 0) {
    if (strict) {
      throw new LedgerRuleError('invalid', `date must not be before ${h.accruedThrough}`);
    }
    return h.accruedUnpaid;
  }
  return h.accruedUnpaid.plus(
    accruedInterest({
      principal: h.principalOutstanding,
      annualRate: fractionOf(h.terms.interestRate) ?? '0',
      interestType: h.terms.interestType ?? 'simple',
      dayCount: h.terms.dayCount ?? 'actual/365',
      startDate: h.accruedThrough,
      endDate: date,
    }),
  );
}

export function assertExercisable(
  state: LedgerState,
  h: HoldingState,
  quantity: Decimal,
  date: string,
) {
  if (!EXERCISABLE_TYPES.has(h.type)) {
    throw new LedgerRuleError('invalid', `a ${h.type} is not exercised`);
  }
  assertActiveHolding(h);
  const { grantDate, expirationDate } = h.terms;
  if (grantDate && compareDates(date, grantDate) < 0) {
    throw new LedgerRuleError('invalid', `date must not be before the grant date ${grantDate}`);
  }
  if (expirationDate && compareDates(date, expirationDate) > 0) {
    throw new LedgerRuleError('conflict', `the ${h.type} expired on ${expirationDate}`);
  }
  const can = exercisable(state, h, date);
  if (quantity.gt(can)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `${toDecimalString(can)} can be exercised on ${date}, less than ${toDecimalString(quantity)}`,
    );
  }
}

export function assertActiveHolding(h: HoldingState) {
  if (h.status !== 'active') {
    throw new LedgerRuleError('conflict', `the ${h.type} is ${h.status}`);
  }
}

/** A grant given (or moved to) vesting terms takes their latest version. */
export function assertSchedule(state: LedgerState, id: string | null) {
  if (id === null) return;
  const v = state.schedules.get(id);
  if (!v || v.deleted) throw new LedgerRuleError('notFound', `no vesting schedule ${id}`);
  if (v.supersededById) {
    throw new LedgerRuleError(
      'conflict',
      `vesting schedule ${v.name} version ${v.version} was replaced by ${v.supersededById}: grant with the latest version`,
    );
  }
}

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

export const poolsOf = (state: LedgerState, planId: string) =>
  [...state.pools.values()].filter((x) => x.planId === planId && !x.deleted);

export function livePlan(state: LedgerState, id: string, strict: boolean): PlanState {
  const pl = plan(state, id);
  if (strict && pl.deleted) throw new LedgerRuleError('notFound', `no plan ${id}`);
  return pl;
}

export const schedule = (state: LedgerState, id: string) =>
  found(state.schedules, id, 'vesting schedule');
export const plan = (state: LedgerState, id: string) => found(state.plans, id, 'plan');
export const pool = (state: LedgerState, id: string) => found(state.pools, id, 'pool');
export const holding = (state: LedgerState, id: string) => found(state.holdings, id, 'holding');
