import type Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { available, outstandingOfPool } from '../ledger/incentives/plan-reservation';
import type { PlanState, PoolState } from '../ledger/ledger-state';
import { type Position, vestedOutstanding } from '../position/position';
import type { PlanDashboard, PlanFigures } from './plan.view';

const ZERO = toDecimal(0);
const text = toDecimalString;

/**
 * A plan's figures on the position's date: sums over its live pools (a deleted pool had nothing
 * outstanding and everything granted from it had returned, so it changes neither available nor
 * outstanding), and the vested part of each active grant by its own schedule version, still
 * outstanding (the position's one rule).
 */
export function planDashboard(
  position: Position,
  plan: PlanState,
  pools: PoolState[],
): PlanDashboard {
  const vestedByPool = new Map<string, Decimal>();
  for (const h of position.state.holdings.values()) {
    if (h.planId !== plan.id || h.status !== 'active' || !h.poolId) continue;
    const vested = vestedOutstanding(position, h);
    vestedByPool.set(h.poolId, (vestedByPool.get(h.poolId) ?? ZERO).plus(vested));
  }
  const rows = pools.map((s) => ({
    pool: s.id,
    name: s.name,
    ...figures(s.sharesReserved, [s], available(s), vestedByPool.get(s.id) ?? ZERO),
  }));
  const granted = sum(pools.map((s) => s.granted));
  const returned = sum(pools.map((s) => s.returned));
  const f = figures(
    plan.sharesReserved,
    pools,
    plan.sharesReserved.minus(granted).plus(returned),
    sum([...vestedByPool.values()]),
  );
  // In the order the API documents: what was done with the reservation, then where it stands.
  return {
    plan: plan.id,
    asOf: position.asOf,
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
