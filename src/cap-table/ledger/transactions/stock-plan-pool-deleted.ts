import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { plan, pool } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** A pool with nothing granted or exercised from it. */
export const stockPlanPoolDeleted: TransactionDefinition<'STOCK_PLAN_POOL_DELETED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ pools: [p.poolId] }),
  validate(state, { poolId }) {
    const po = pool(state, poolId);
    const committed = po.granted.minus(po.returned);
    if (committed.gt(0)) {
      throw new LedgerRuleError(
        'conflict',
        `pool ${po.name} has ${toDecimalString(committed)} shares granted or exercised`,
      );
    }
  },
  apply(state, { poolId }) {
    const po = pool(state, poolId);
    po.deleted = true;
    state.put('pools', po);
    state.put('plans', plan(state, po.planId));
  },
};
