import { found } from '../rules';
import { LedgerRuleError, LedgerState, PlanState } from '../ledger-state';

/** The incentive records of a state, by id (notFound when absent). */

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
