import { In } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { InTransaction } from '../../database';
import { Holding } from '../holdings/holding.entity';
import { ExerciseRequest } from '../options/exercise-request.entity';
import { Plan } from '../plans/plan.entity';
import { Pool } from '../plans/pool.entity';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import type { PeriodType } from '../../../libs/cap-math';
import {
  ExerciseRequestState,
  HoldingState,
  LedgerState,
  PlanState,
  PoolState,
  VestingScheduleState,
} from './ledger-state';

/** Which incentive records a write reads and locks (see LedgerScope). */
export interface IncentiveScope {
  /** Plans with all their pools (and their class). */
  plans?: string[];
  pools?: string[];
  /** Holdings with their pool, plan, class, vesting schedule and pending requests. */
  holdings?: string[];
  requests?: string[];
  /** Vesting schedules a change uses: share-locked, so they cannot be deleted meanwhile. */
  schedules?: string[];
  /** A schedule about to be deleted (or replaced), with the active grants that use it. */
  scheduleToChange?: string;
}

const FOR_UPDATE = { mode: 'pessimistic_write' } as const;
const FOR_SHARE = { mode: 'pessimistic_read' } as const;
const ZERO = toDecimal(0);
const dec = (v: string | null) => (v === null ? null : toDecimalString(toDecimal(v)));
const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort();

/**
 * What an incentive change needs besides the classes: the ids of the classes to lock first (so
 * the lock order stays classes → plans → pools → holdings → requests → schedules).
 */
export async function incentiveClasses(
  tx: InTransaction,
  organizationId: string,
  scope: IncentiveScope,
): Promise<{ securities: string[]; scope: IncentiveScope }> {
  const m = tx.manager;
  const plans = new Set(scope.plans ?? []);
  const pools = new Set(scope.pools ?? []);
  const schedules = new Set(scope.schedules ?? []);
  const holdings = new Set(scope.holdings ?? []);
  if (scope.requests?.length) {
    const rows = await m.getRepository(ExerciseRequest).find({
      where: { organizationId, id: In(sorted(scope.requests)) },
      select: { id: true, holdingId: true },
    });
    for (const r of rows) holdings.add(r.holdingId);
  }
  const securities = new Set<string>();
  if (holdings.size) {
    const rows = await m.getRepository(Holding).find({
      where: { organizationId, id: In(sorted(holdings)) },
      select: { id: true, poolId: true, planId: true, securityId: true, vestingScheduleId: true },
    });
    for (const h of rows) {
      if (h.planId) plans.add(h.planId);
      if (h.poolId) pools.add(h.poolId);
      if (h.securityId) securities.add(h.securityId);
      if (h.vestingScheduleId) schedules.add(h.vestingScheduleId);
    }
  }
  if (pools.size) {
    const rows = await m.getRepository(Pool).find({
      where: { organizationId, id: In(sorted(pools)) },
      select: { id: true, planId: true },
    });
    for (const p of rows) plans.add(p.planId);
  }
  if (plans.size) {
    const rows = await m.getRepository(Plan).find({
      where: { organizationId, id: In(sorted(plans)) },
      select: { id: true, securityId: true },
    });
    for (const p of rows) securities.add(p.securityId);
  }
  return {
    securities: [...securities],
    scope: {
      ...scope,
      plans: [...plans],
      pools: [...pools],
      holdings: [...holdings],
      schedules: [...schedules],
    },
  };
}

/** Loads and locks the incentive records of the scope (after the classes and shareholdings). */
export async function loadIncentives(
  tx: InTransaction,
  organizationId: string,
  scope: IncentiveScope,
  state: LedgerState,
): Promise<void> {
  const m = tx.manager;
  const byIds = (ids: Iterable<string>) => ({
    where: { organizationId, id: In(sorted(ids)) },
    order: { id: 'ASC' as const },
  });
  if (scope.plans?.length) {
    for (const p of await m.getRepository(Plan).find({ ...byIds(scope.plans), lock: FOR_UPDATE }))
      state.plans.set(p.id, toPlanState(p));
    // Every pool of the plans: their reservations add up against the plan's.
    const pools = await m.getRepository(Pool).find({
      where: { organizationId, planId: In(sorted(scope.plans)) },
      order: { id: 'ASC' },
      lock: FOR_UPDATE,
    });
    for (const p of pools) state.pools.set(p.id, toPoolState(p));
  }
  const holdingIds = new Set(scope.holdings ?? []);
  if (holdingIds.size) {
    const rows = await m.getRepository(Holding).find({ ...byIds(holdingIds), lock: FOR_UPDATE });
    for (const h of rows) state.holdings.set(h.id, toHoldingState(h));
  }
  // The named requests, and every pending one of the holdings (a change may close them).
  const requestFilters = [
    ...(scope.requests?.length ? [{ organizationId, id: In(sorted(scope.requests)) }] : []),
    ...(holdingIds.size
      ? [{ organizationId, holdingId: In(sorted(holdingIds)), status: 'pending' as const }]
      : []),
  ];
  if (requestFilters.length) {
    const rows = await m
      .getRepository(ExerciseRequest)
      .find({ where: requestFilters, order: { id: 'ASC' }, lock: FOR_UPDATE });
    for (const r of rows) state.requests.set(r.id, toRequestState(r));
  }
  const scheduleIds = [
    ...(scope.schedules ?? []),
    ...(scope.scheduleToChange ? [scope.scheduleToChange] : []),
  ];
  if (scheduleIds.length) {
    const lock = scope.scheduleToChange ? FOR_UPDATE : FOR_SHARE;
    const rows = await m.getRepository(VestingScheduleEntity).find({ ...byIds(scheduleIds), lock });
    for (const v of rows) state.schedules.set(v.id, toScheduleState(v));
  }
  if (scope.scheduleToChange) {
    // Read once the schedule is locked: a grant taking it share-locks it first.
    const users = await m.getRepository(Holding).find({
      where: { organizationId, vestingScheduleId: scope.scheduleToChange, status: 'active' },
    });
    for (const h of users)
      if (!state.holdings.has(h.id)) state.holdings.set(h.id, toHoldingState(h));
  }
}

/** The incentive records as their tables' rows, for the writer. */
export const INCENTIVE_ROWS = {
  schedules: {
    entity: VestingScheduleEntity,
    row: (v: VestingScheduleState, now: Date) => fromScheduleState(v, now),
  },
  plans: { entity: Plan, row: (p: PlanState, now: Date) => fromPlanState(p, now) },
  pools: { entity: Pool, row: (p: PoolState, now: Date) => fromPoolState(p, now) },
  holdings: { entity: Holding, row: (h: HoldingState) => fromHoldingState(h) },
  requests: { entity: ExerciseRequest, row: (r: ExerciseRequestState) => ({ ...r }) },
};

/** Every incentive record of the organization, as the tables hold them (for ledger:verify). */
export async function currentIncentives(
  m: InTransaction['manager'],
  organizationId: string,
  state: LedgerState,
): Promise<void> {
  const where = { organizationId };
  for (const v of await m.getRepository(VestingScheduleEntity).findBy(where))
    state.schedules.set(v.id, toScheduleState(v));
  for (const p of await m.getRepository(Plan).findBy(where)) state.plans.set(p.id, toPlanState(p));
  for (const p of await m.getRepository(Pool).findBy(where)) state.pools.set(p.id, toPoolState(p));
  for (const h of await m.getRepository(Holding).findBy(where))
    state.holdings.set(h.id, toHoldingState(h));
  for (const r of await m.getRepository(ExerciseRequest).findBy(where))
    state.requests.set(r.id, toRequestState(r));
}

export const toScheduleState = (v: VestingScheduleEntity): VestingScheduleState => ({
  id: v.id,
  name: v.name,
  planId: v.planId,
  version: v.version,
  previousVersionId: v.previousVersionId,
  totalPeriods: v.totalPeriods,
  periodLength: v.periodLength,
  periodType: v.periodType as PeriodType,
  cliffPeriods: v.cliffPeriods,
  allocationType: v.allocationType,
  vestingDayOfMonth: v.vestingDayOfMonth,
  acceleration: v.acceleration,
  supersededById: v.supersededById,
  deleted: v.deletedAt !== null,
});

const fromScheduleState = (
  { deleted, ...v }: VestingScheduleState,
  now: Date,
): Partial<VestingScheduleEntity> => ({
  ...v,
  deletedAt: deleted ? now : null,
});

export const toPlanState = (p: Plan): PlanState => ({
  id: p.id,
  name: p.name,
  securityId: p.securityId,
  sharesReserved: toDecimal(p.sharesReserved),
  boardApprovalDate: p.boardApprovalDate,
  stockholderApprovalDate: p.stockholderApprovalDate,
  defaultCancellationBehavior: p.defaultCancellationBehavior,
  exercised: toDecimal(p.exercised),
  retired: toDecimal(p.retired),
  deleted: p.deletedAt !== null,
});

const fromPlanState = (
  { deleted, sharesReserved, exercised, retired, ...p }: PlanState,
  now: Date,
) => ({
  ...p,
  sharesReserved: toDecimalString(sharesReserved),
  exercised: toDecimalString(exercised),
  retired: toDecimalString(retired),
  deletedAt: deleted ? now : null,
});

export const toPoolState = (p: Pool): PoolState => ({
  id: p.id,
  planId: p.planId,
  name: p.name,
  sharesReserved: toDecimal(p.sharesReserved),
  granted: toDecimal(p.granted),
  exercised: toDecimal(p.exercised),
  cancelled: toDecimal(p.cancelled),
  returned: toDecimal(p.returned),
  deleted: p.deletedAt !== null,
});

const fromPoolState = ({ deleted, ...p }: PoolState, now: Date) => ({
  id: p.id,
  planId: p.planId,
  name: p.name,
  sharesReserved: toDecimalString(p.sharesReserved),
  granted: toDecimalString(p.granted),
  exercised: toDecimalString(p.exercised),
  cancelled: toDecimalString(p.cancelled),
  returned: toDecimalString(p.returned),
  deletedAt: deleted ? now : null,
});

export const toHoldingState = (h: Holding): HoldingState => ({
  id: h.id,
  memberId: h.memberId,
  type: h.type,
  status: h.status,
  planId: h.planId,
  poolId: h.poolId,
  securityId: h.securityId,
  vestingScheduleId: h.vestingScheduleId,
  terms: h.terms,
  quantity: h.quantity === null ? null : toDecimal(h.quantity),
  exercised: toDecimal(h.exercised),
  cancelled: toDecimal(h.cancelled),
  principalOutstanding: h.principalOutstanding === null ? null : toDecimal(h.principalOutstanding),
  accruedUnpaid: h.accruedUnpaid === null ? ZERO : toDecimal(h.accruedUnpaid),
  accruedThrough: h.accruedThrough,
  interestPaid: h.interestPaid === null ? ZERO : toDecimal(h.interestPaid),
  conversion: h.conversion,
});

const fromHoldingState = (h: HoldingState): Partial<Holding> => ({
  ...h,
  quantity: h.quantity === null ? null : toDecimalString(h.quantity),
  exercised: toDecimalString(h.exercised),
  cancelled: toDecimalString(h.cancelled),
  principalOutstanding:
    h.principalOutstanding === null ? null : toDecimalString(h.principalOutstanding),
  accruedUnpaid: toDecimalString(h.accruedUnpaid),
  interestPaid: toDecimalString(h.interestPaid),
});

const toRequestState = (r: ExerciseRequest): ExerciseRequestState => ({
  id: r.id,
  holdingId: r.holdingId,
  quantity: dec(r.quantity)!,
  date: r.date,
  paymentMethod: r.paymentMethod,
  requestedByUserId: r.requestedByUserId,
  status: r.status,
});
