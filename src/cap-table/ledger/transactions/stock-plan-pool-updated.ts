import { Type, type Static } from '@sinclair/typebox';
import { DecimalText, Id } from '../payload-fields';
import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { assertPoolsFit, nonNegative } from '../incentives/plan-reservation';
import { plan, pool, poolsOf } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const poolUpdatedPayload = Type.Object({
  poolId: Id(),
  changes: Type.Object({
    name: Type.Optional(Type.String()),
    sharesReserved: Type.Optional(DecimalText()),
  }),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_PLAN_POOL_UPDATED: Static<typeof poolUpdatedPayload>;
  }
}

/** A pool renamed or resized: never below what it granted, its plan's pools within the plan. */
export const stockPlanPoolUpdated: TransactionDefinition<'STOCK_PLAN_POOL_UPDATED'> = {
  payload: poolUpdatedPayload,
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ pools: [p.poolId] }),
  validate(state, { poolId, changes }) {
    const po = pool(state, poolId);
    if (po.deleted) throw new LedgerRuleError('notFound', `no pool ${poolId}`);
    if (changes.sharesReserved === undefined) return;
    const next = nonNegative(changes.sharesReserved, 'sharesReserved');
    const committed = po.granted.minus(po.returned);
    if (next.lt(committed)) {
      throw new LedgerRuleError(
        'insufficientShares',
        `pool ${po.name} has ${toDecimalString(committed)} shares granted: it cannot reserve fewer`,
      );
    }
    const pl = plan(state, po.planId);
    const others = poolsOf(state, pl.id).filter((x) => x.id !== po.id);
    assertPoolsFit(pl, others, next, true);
  },
  apply(state, { poolId, changes }) {
    const po = pool(state, poolId);
    if (changes.sharesReserved !== undefined) {
      po.sharesReserved = nonNegative(changes.sharesReserved, 'sharesReserved');
    }
    if (changes.name !== undefined) po.name = changes.name;
    state.put('pools', po);
    state.put('plans', plan(state, po.planId));
  },
};
