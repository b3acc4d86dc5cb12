import { assertPoolsFit, nonNegative } from '../incentives/plan-reservation';
import { livePlan, poolsOf } from '../incentives/lookups';
import { ZERO } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** A pool of a plan: the pools together reserve no more than the plan. */
export const stockPlanPoolCreated: TransactionDefinition<'STOCK_PLAN_POOL_CREATED'> = {
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ plans: [p.pool.planId] }),
  validate(state, { pool }) {
    const pl = livePlan(state, pool.planId, true);
    assertPoolsFit(
      pl,
      poolsOf(state, pl.id),
      nonNegative(pool.sharesReserved, 'sharesReserved'),
      true,
    );
  },
  apply(state, { pool }, strict) {
    const pl = livePlan(state, pool.planId, strict);
    state.put('pools', {
      ...pool,
      sharesReserved: nonNegative(pool.sharesReserved, 'sharesReserved'),
      granted: ZERO,
      exercised: ZERO,
      cancelled: ZERO,
      returned: ZERO,
      deleted: false,
    });
    // A plan changes with its pools (its `updated`).
    state.put('plans', pl);
  },
};
