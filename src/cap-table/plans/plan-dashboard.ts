import type Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { Holding } from '../holdings/holding.entity';
import { toHoldingState, toPoolState, toScheduleState } from '../ledger/incentive-store';
import {
  available,
  outstanding,
  outstandingOfPool,
  vestedQuantity,
} from '../ledger/incentive-rules';
import { emptyState, PlanState, PoolState } from '../ledger/ledger-state';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import type { PlanDashboard, PlanFigures } from './plan.view';
import { Pool } from './pool.entity';

const ZERO = toDecimal(0);
const text = toDecimalString;

/**
 * A plan's figures on `asOf`: sums over its live pools (a deleted pool had nothing outstanding
 * and everything granted from it had returned, so it changes neither available nor
 * outstanding), and the vested part of each active grant by its own schedule version, less what
 * was exercised, never more than what is outstanding.
 */
export function planDashboard(
  plan: PlanState,
  pools: Pool[],
  grants: Holding[],
  schedules: VestingScheduleEntity[],
  asOf: string,
): PlanDashboard {
  const state = emptyState();
  for (const v of schedules) state.schedules.set(v.id, toScheduleState(v));
  const vestedByPool = new Map<string, Decimal>();
  for (const h of grants.map(toHoldingState)) {
    if (!h.poolId) continue;
    const left = outstanding(h);
    let vested = vestedQuantity(state, h, asOf).minus(h.exercised).minus(h.cancelled);
    if (vested.lt(0)) vested = ZERO;
    if (vested.gt(left)) vested = left;
    vestedByPool.set(h.poolId, (vestedByPool.get(h.poolId) ?? ZERO).plus(vested));
  }
  const states = pools.map(toPoolState);
  const rows = states.map((s) => ({
    pool: s.id,
    name: s.name,
    ...figures(s.sharesReserved, [s], available(s), vestedByPool.get(s.id) ?? ZERO),
  }));
  const granted = sum(states.map((s) => s.granted));
  const returned = sum(states.map((s) => s.returned));
  const f = figures(
    plan.sharesReserved,
    states,
    plan.sharesReserved.minus(granted).plus(returned),
    sum([...vestedByPool.values()]),
  );
  // In the order the API documents: what was done with the reservation, then where it stands.
  return {
    plan: plan.id,
    asOf,
    reserved: f.reserved,
    granted: f.granted,
    exercised: f.exercised,
    cancelled: f.cancelled,
    returned: f.returned,
    retired: text(plan.retired),
    available: f.available,
    outstanding: f.outstanding,
    vested: f.vested,
    unvested: f.unvested,
    pools: rows,
  };
}

function figures(
  reserved: Decimal,
  pools: PoolState[],
  free: Decimal,
  vested: Decimal,
): PlanFigures {
  const left = sum(pools.map(outstandingOfPool));
  return {
    reserved: text(reserved),
    granted: text(sum(pools.map((s) => s.granted))),
    exercised: text(sum(pools.map((s) => s.exercised))),
    cancelled: text(sum(pools.map((s) => s.cancelled))),
    returned: text(sum(pools.map((s) => s.returned))),
    available: text(free),
    outstanding: text(left),
    vested: text(vested),
    unvested: text(left.minus(vested)),
  };
}

const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), ZERO);
