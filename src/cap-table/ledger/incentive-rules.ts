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
import { CONVERTIBLE_TYPES, EXERCISABLE_TYPES, fractionOf } from './incentive-types';
import type { ExercisePayload, HoldingRecord } from './incentive-types';
import { addShareholding, assertLegends, found, issue, positive, security } from './rules';
import {
  HoldingState,
  LedgerRuleError,
  LedgerState,
  PlanState,
  PoolState,
  SecurityState,
  VestingScheduleState,
} from './state';
import type { LedgerTransaction } from './transaction-types';

const ZERO = toDecimal(0);

/**
 * The rules of equity incentives and convertibles. A plan reserves shares of its class (they
 * leave the class's unissued balance); its pools split that reservation; a grant takes from its
 * pool's available shares; exercising turns reserved shares into issued ones; a cancelled grant
 * returns to its pool or is retired from the plan (and the class's reservation). Warrants and
 * conversions issue from the unissued balance like any issuance.
 */
export function applyIncentiveTransaction(
  state: LedgerState,
  tx: LedgerTransaction,
  strict: boolean,
): void {
  const p = tx.payload;
  switch (tx.type) {
    case 'VESTING_TERMS_CREATED': {
      const { vestingSchedule: v } = p as typeof tx.payload;
      if (v.previousVersionId) {
        const previous = schedule(state, v.previousVersionId);
        if (strict && (previous.supersededById || previous.deleted)) {
          throw new LedgerRuleError(
            'conflict',
            `vesting schedule ${previous.name} version ${previous.version} is not the latest version`,
          );
        }
        previous.supersededById = v.id;
        state.touched.schedules.add(previous.id);
      }
      state.schedules.set(v.id, { ...v, supersededById: null, deleted: false });
      state.touched.schedules.add(v.id);
      return;
    }
    case 'VESTING_TERMS_DELETED': {
      const { vestingScheduleId } = p as typeof tx.payload;
      const v = schedule(state, vestingScheduleId);
      const user = [...state.holdings.values()].find(
        (h) => h.status === 'active' && h.vestingScheduleId === vestingScheduleId,
      );
      if (strict && user) {
        throw new LedgerRuleError(
          'conflict',
          `vesting schedule ${v.name} is used by an active ${user.type} grant`,
        );
      }
      v.deleted = true;
      state.touched.schedules.add(v.id);
      return;
    }
    case 'STOCK_PLAN_CREATED': {
      const { plan: record } = p as typeof tx.payload;
      const s = security(state, record.securityId);
      if (strict && s.deleted) throw new LedgerRuleError('conflict', `class ${s.name} was deleted`);
      const reserved = nonNegative(record.sharesReserved, 'sharesReserved');
      reserve(state, s, reserved, strict);
      state.plans.set(record.id, {
        ...record,
        sharesReserved: reserved,
        exercised: ZERO,
        retired: ZERO,
        deleted: false,
      });
      state.touched.plans.add(record.id);
      return;
    }
    case 'STOCK_PLAN_UPDATED': {
      const { planId, changes } = p as typeof tx.payload;
      Object.assign(plan(state, planId), changes);
      state.touched.plans.add(planId);
      return;
    }
    case 'TX_STOCK_PLAN_POOL_ADJUSTMENT': {
      const { planId, sharesReserved } = p as typeof tx.payload;
      const pl = livePlan(state, planId, strict);
      const s = security(state, pl.securityId);
      const next = nonNegative(sharesReserved, 'sharesReserved');
      const pooled = sumOf(poolsOf(state, pl.id).map((x) => x.sharesReserved));
      const spent = pl.exercised.plus(pl.retired);
      const floor = pooled.gt(spent) ? pooled : spent;
      if (strict && next.lt(floor)) {
        throw new LedgerRuleError(
          'insufficientShares',
          `plan ${pl.name} needs at least ${toDecimalString(floor)} shares reserved (its pools reserve ${toDecimalString(pooled)}; ${toDecimalString(spent)} were exercised or retired)`,
        );
      }
      const delta = next.minus(pl.sharesReserved);
      if (delta.gt(0)) reserve(state, s, delta, strict);
      else s.reserved = s.reserved.plus(delta);
      pl.sharesReserved = next;
      state.touched.plans.add(pl.id);
      state.touched.securities.add(s.id);
      return;
    }
    case 'STOCK_PLAN_DELETED': {
      const { planId } = p as typeof tx.payload;
      const pl = livePlan(state, planId, strict);
      const pools = poolsOf(state, pl.id);
      const busy = pools.find((x) => outstandingOfPool(x).gt(0));
      if (strict && busy) {
        throw new LedgerRuleError(
          'conflict',
          `plan ${pl.name} has outstanding grants (pool ${busy.name}: ${toDecimalString(outstandingOfPool(busy))})`,
        );
      }
      const s = security(state, pl.securityId);
      s.reserved = s.reserved.minus(outstandingReservation(pl));
      pl.deleted = true;
      for (const x of pools) {
        x.deleted = true;
        state.touched.pools.add(x.id);
      }
      state.touched.plans.add(pl.id);
      state.touched.securities.add(s.id);
      return;
    }
    case 'STOCK_PLAN_POOL_CREATED': {
      const { pool: record } = p as typeof tx.payload;
      const pl = livePlan(state, record.planId, strict);
      const reserved = nonNegative(record.sharesReserved, 'sharesReserved');
      assertPoolsFit(pl, poolsOf(state, pl.id), reserved, strict);
      state.pools.set(record.id, {
        ...record,
        sharesReserved: reserved,
        granted: ZERO,
        exercised: ZERO,
        cancelled: ZERO,
        returned: ZERO,
        deleted: false,
      });
      state.touched.pools.add(record.id);
      // A plan changes with its pools (its `updated`).
      state.touched.plans.add(pl.id);
      return;
    }
    case 'STOCK_PLAN_POOL_UPDATED': {
      const { poolId, changes } = p as typeof tx.payload;
      const po = pool(state, poolId);
      if (strict && po.deleted) throw new LedgerRuleError('notFound', `no pool ${poolId}`);
      if (changes.sharesReserved !== undefined) {
        const next = nonNegative(changes.sharesReserved, 'sharesReserved');
        const committed = po.granted.minus(po.returned);
        if (strict && next.lt(committed)) {
          throw new LedgerRuleError(
            'insufficientShares',
            `pool ${po.name} has ${toDecimalString(committed)} shares granted: it cannot reserve fewer`,
          );
        }
        const pl = plan(state, po.planId);
        const others = poolsOf(state, pl.id).filter((x) => x.id !== po.id);
        assertPoolsFit(pl, others, next, strict);
        po.sharesReserved = next;
      }
      if (changes.name !== undefined) po.name = changes.name;
      state.touched.pools.add(po.id);
      state.touched.plans.add(po.planId);
      return;
    }
    case 'STOCK_PLAN_POOL_DELETED': {
      const { poolId } = p as typeof tx.payload;
      const po = pool(state, poolId);
      const committed = po.granted.minus(po.returned);
      if (strict && committed.gt(0)) {
        throw new LedgerRuleError(
          'conflict',
          `pool ${po.name} has ${toDecimalString(committed)} shares granted or exercised`,
        );
      }
      po.deleted = true;
      state.touched.pools.add(po.id);
      state.touched.plans.add(po.planId);
      return;
    }
    case 'TX_EQUITY_COMPENSATION_ISSUANCE': {
      const { holding: record } = p as typeof tx.payload;
      const pl = livePlan(state, record.planId ?? '', strict);
      const po = pool(state, record.poolId ?? '');
      if (strict && (po.deleted || po.planId !== pl.id)) {
        throw new LedgerRuleError('notFound', `no pool ${record.poolId} in plan ${pl.name}`);
      }
      if (strict) assertSchedule(state, record.vestingScheduleId);
      const quantity = positive(record.terms.quantity ?? '', 'quantity');
      if (strict && quantity.gt(available(po))) {
        throw new LedgerRuleError(
          'insufficientShares',
          `pool ${po.name} has ${toDecimalString(available(po))} shares available, less than ${toDecimalString(quantity)}`,
        );
      }
      po.granted = po.granted.plus(quantity);
      state.touched.pools.add(po.id);
      addHolding(state, record, quantity, strict);
      return;
    }
    case 'TX_WARRANT_ISSUANCE': {
      const { holding: record } = p as typeof tx.payload;
      const s = security(state, record.securityId ?? '');
      if (strict && s.deleted) throw new LedgerRuleError('conflict', `class ${s.name} was deleted`);
      if (strict) assertSchedule(state, record.vestingScheduleId);
      addHolding(state, record, positive(record.terms.quantity ?? '', 'quantity'), strict);
      return;
    }
    case 'TX_CONVERTIBLE_ISSUANCE': {
      const { holding: record } = p as typeof tx.payload;
      addHolding(state, record, null, strict);
      return;
    }
    case 'HOLDING_AMENDED': {
      const { holdingId, changes } = p as typeof tx.payload;
      const h = holding(state, holdingId);
      if (strict) assertActiveHolding(h);
      if (changes.vestingScheduleId !== undefined) {
        if (strict) assertSchedule(state, changes.vestingScheduleId);
        h.vestingScheduleId = changes.vestingScheduleId;
      }
      const terms = changes.terms ?? {};
      if (terms.quantity !== undefined && h.quantity) {
        const quantity = positive(terms.quantity, 'quantity');
        const used = h.exercised.plus(h.cancelled);
        if (strict && quantity.lt(used)) {
          throw new LedgerRuleError(
            'insufficientShares',
            `${toDecimalString(used)} of it were exercised or cancelled: the quantity cannot be less`,
          );
        }
        if (h.poolId) {
          const po = pool(state, h.poolId);
          const delta = quantity.minus(h.quantity);
          if (strict && delta.gt(available(po))) {
            throw new LedgerRuleError(
              'insufficientShares',
              `pool ${po.name} has ${toDecimalString(available(po))} shares available, less than ${toDecimalString(delta)} more`,
            );
          }
          po.granted = po.granted.plus(delta);
          state.touched.pools.add(po.id);
        }
        h.quantity = quantity;
      }
      if (terms.principal !== undefined && h.principalOutstanding) {
        if (
          strict &&
          (h.interestPaid.gt(0) || !h.principalOutstanding.eq(h.terms.principal ?? 0))
        ) {
          throw new LedgerRuleError('conflict', 'the principal of a note with repayments is fixed');
        }
        h.principalOutstanding = positive(terms.principal, 'principal');
      }
      if (terms.issueDate !== undefined && h.type === 'convertible_note') {
        h.accruedThrough = terms.issueDate;
      }
      h.terms = { ...h.terms, ...terms };
      state.touched.holdings.add(h.id);
      return;
    }
    case 'TX_EQUITY_COMPENSATION_CANCELLATION': {
      const { holdingId, returnedToPool } = p as typeof tx.payload;
      const h = holding(state, holdingId);
      if (strict) assertActiveHolding(h);
      const quantity = outstanding(h);
      h.cancelled = h.cancelled.plus(quantity);
      h.status = 'cancelled';
      closePendingRequests(state, h.id);
      const po = pool(state, h.poolId ?? '');
      po.cancelled = po.cancelled.plus(quantity);
      if (returnedToPool) {
        po.returned = po.returned.plus(quantity);
      } else {
        const pl = plan(state, po.planId);
        pl.retired = pl.retired.plus(quantity);
        const s = security(state, pl.securityId);
        s.reserved = s.reserved.minus(quantity);
        state.touched.plans.add(pl.id);
        state.touched.securities.add(s.id);
      }
      state.touched.pools.add(po.id);
      state.touched.holdings.add(h.id);
      return;
    }
    case 'TX_WARRANT_CANCELLATION': {
      const { holdingId } = p as typeof tx.payload;
      const h = holding(state, holdingId);
      if (strict) assertActiveHolding(h);
      h.cancelled = h.cancelled.plus(outstanding(h));
      h.status = 'cancelled';
      state.touched.holdings.add(h.id);
      return;
    }
    case 'TX_CONVERTIBLE_CANCELLATION': {
      const { holdingId } = p as typeof tx.payload;
      const h = holding(state, holdingId);
      if (strict) assertActiveHolding(h);
      h.status = 'cancelled';
      state.touched.holdings.add(h.id);
      return;
    }
    case 'EXERCISE_REQUESTED': {
      const { request } = p as typeof tx.payload;
      const h = holding(state, request.holdingId);
      const quantity = positive(request.quantity, 'quantity');
      if (strict) assertExercisable(state, h, quantity, request.date);
      state.requests.set(request.id, { ...request, status: 'pending' });
      state.touched.requests.add(request.id);
      return;
    }
    case 'EXERCISE_REQUEST_REJECTED': {
      const { requestId } = p as typeof tx.payload;
      const r = found(state.requests, requestId, 'exercise request');
      if (strict && r.status !== 'pending') {
        throw new LedgerRuleError('conflict', `the exercise request is ${r.status}`);
      }
      r.status = 'rejected';
      state.touched.requests.add(r.id);
      return;
    }
    case 'TX_EQUITY_COMPENSATION_EXERCISE':
    case 'TX_WARRANT_EXERCISE': {
      exercise(state, p as ExercisePayload, strict);
      return;
    }
    case 'TX_CONVERTIBLE_REPAYMENT': {
      const { holdingId, amount, date } = p as typeof tx.payload;
      const h = holding(state, holdingId);
      if (strict) assertActiveHolding(h);
      if (h.type !== 'convertible_note' || !h.principalOutstanding) {
        throw new LedgerRuleError('invalid', `a ${h.type} is not repaid`);
      }
      const paid = positive(amount, 'amount');
      // Settled to 10 decimal places, as every stored amount.
      const interest = interestOwed(h, date, strict).toDecimalPlaces(10);
      const owed = h.principalOutstanding.plus(interest);
      if (strict && paid.gt(owed)) {
        throw new LedgerRuleError(
          'invalid',
          `amount ${toDecimalString(paid)} is more than the ${toDecimalString(owed)} owed on ${date}`,
        );
      }
      const toInterest = paid.lt(interest) ? paid : interest;
      h.interestPaid = h.interestPaid.plus(toInterest);
      h.accruedUnpaid = interest.minus(toInterest);
      h.principalOutstanding = h.principalOutstanding.minus(paid.minus(toInterest));
      h.accruedThrough = date;
      if (h.principalOutstanding.isZero() && h.accruedUnpaid.isZero()) h.status = 'repaid';
      state.touched.holdings.add(h.id);
      return;
    }
    case 'TX_CONVERTIBLE_CONVERSION': {
      const { holdingId, conversion, legendIds } = p as typeof tx.payload;
      const h = holding(state, holdingId);
      if (strict) assertActiveHolding(h);
      if (!CONVERTIBLE_TYPES.has(h.type)) {
        throw new LedgerRuleError('invalid', `a ${h.type} does not convert`);
      }
      const s = security(state, conversion.securityId);
      if (strict && s.deleted) throw new LedgerRuleError('conflict', `class ${s.name} was deleted`);
      if (strict) assertLegends(state, legendIds);
      const shares = positive(conversion.shares, 'shares');
      issue(state, s, shares, strict);
      addShareholding(state, s, {
        id: conversion.shareholdingId,
        memberId: h.memberId,
        securityId: s.id,
        quantity: shares,
        pricePerShare: conversion.conversionPrice,
        issueDate: conversion.date,
        legendIds,
        consideration: `conversion of ${h.type === 'safe' ? 'a SAFE' : 'a convertible note'}`,
      });
      if (h.principalOutstanding) {
        h.principalOutstanding = ZERO;
        h.accruedUnpaid = ZERO;
        h.accruedThrough = conversion.date;
      }
      h.conversion = conversion;
      h.status = 'converted';
      state.touched.holdings.add(h.id);
      return;
    }
    default:
      throw new LedgerRuleError('invalid', `unknown transaction type ${String(tx.type)}`);
  }
}

function exercise(state: LedgerState, x: ExercisePayload, strict: boolean) {
  const h = holding(state, x.holdingId);
  const quantity = positive(x.quantity, 'quantity');
  if (strict) assertExercisable(state, h, quantity, x.date);
  if (x.requestId) {
    const r = found(state.requests, x.requestId, 'exercise request');
    if (strict && (r.status !== 'pending' || r.holdingId !== h.id)) {
      throw new LedgerRuleError('conflict', `the exercise request is ${r.status}`);
    }
    r.status = 'approved';
    state.touched.requests.add(r.id);
  }
  const s = security(state, h.securityId ?? '');
  if (strict) assertLegends(state, x.legendIds);
  if (h.poolId) {
    // A plan's grant becomes shares out of the plan's reservation.
    const po = pool(state, h.poolId);
    const pl = plan(state, po.planId);
    po.exercised = po.exercised.plus(quantity);
    pl.exercised = pl.exercised.plus(quantity);
    s.reserved = s.reserved.minus(quantity);
    s.issued = s.issued.plus(quantity);
    state.touched.pools.add(po.id);
    state.touched.plans.add(pl.id);
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
  state.touched.holdings.add(h.id);
}

/** A grant that can no longer be exercised leaves no request pending. */
function closePendingRequests(state: LedgerState, holdingId: string) {
  for (const r of state.requests.values()) {
    if (r.holdingId === holdingId && r.status === 'pending') {
      r.status = 'cancelled';
      state.touched.requests.add(r.id);
    }
  }
}

function addHolding(
  state: LedgerState,
  record: HoldingRecord,
  quantity: Decimal | null,
  strict: boolean,
) {
  if (strict && state.holdings.has(record.id)) {
    throw new LedgerRuleError('conflict', `holding ${record.id} exists`);
  }
  const isNote = record.type === 'convertible_note';
  state.holdings.set(record.id, {
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
  state.touched.holdings.add(record.id);
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
    if (err instanceof CapMathError) throw new LedgerRuleError('invalid', err.message);
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

function assertExercisable(state: LedgerState, h: HoldingState, quantity: Decimal, date: string) {
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

function assertActiveHolding(h: HoldingState) {
  if (h.status !== 'active') {
    throw new LedgerRuleError('conflict', `the ${h.type} is ${h.status}`);
  }
}

/** A grant given (or moved to) vesting terms takes their latest version. */
function assertSchedule(state: LedgerState, id: string | null) {
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
function assertPoolsFit(pl: PlanState, pools: PoolState[], more: Decimal, strict: boolean) {
  const total = sumOf(pools.map((x) => x.sharesReserved)).plus(more);
  if (strict && total.gt(pl.sharesReserved)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `plan ${pl.name} reserves ${toDecimalString(pl.sharesReserved)} shares, less than its pools' ${toDecimalString(total)}`,
    );
  }
}

/** Holds back shares of the class for a plan, out of its unissued balance. */
function reserve(state: LedgerState, s: SecurityState, quantity: Decimal, strict: boolean) {
  const free = s.authorized.minus(s.issued).minus(s.reserved);
  if (strict && quantity.gt(free)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `class ${s.name} has ${toDecimalString(free)} unissued shares, less than ${toDecimalString(quantity)} to reserve`,
    );
  }
  s.reserved = s.reserved.plus(quantity);
  state.touched.securities.add(s.id);
}

function nonNegative(value: string, name: string): Decimal {
  const d = toDecimal(value);
  if (d.lt(0)) throw new LedgerRuleError('invalid', `${name} must not be negative`);
  return d;
}

const sumOf = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), ZERO);

const poolsOf = (state: LedgerState, planId: string) =>
  [...state.pools.values()].filter((x) => x.planId === planId && !x.deleted);

function livePlan(state: LedgerState, id: string, strict: boolean): PlanState {
  const pl = plan(state, id);
  if (strict && pl.deleted) throw new LedgerRuleError('notFound', `no plan ${id}`);
  return pl;
}

export const schedule = (state: LedgerState, id: string) =>
  found(state.schedules, id, 'vesting schedule');
export const plan = (state: LedgerState, id: string) => found(state.plans, id, 'plan');
export const pool = (state: LedgerState, id: string) => found(state.pools, id, 'pool');
export const holding = (state: LedgerState, id: string) => found(state.holdings, id, 'holding');
