import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { plan, pool } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const poolDeletedPayload = Type.Object({ poolId: Id() });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_PLAN_POOL_DELETED: Static<typeof poolDeletedPayload>;
  }
}

/** A pool with nothing granted or exercised from it. */
export const stockPlanPoolDeleted: TransactionDefinition<'STOCK_PLAN_POOL_DELETED'> = {
  payload: poolDeletedPayload,
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
