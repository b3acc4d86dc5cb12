import { Type, type Static } from '@sinclair/typebox';
import { DecimalText, Id } from '../payload-fields';
import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError, LedgerState, PlanState } from '../ledger-state';
import { livePlan, poolsOf } from '../incentives/lookups';
import { nonNegative, reserve, sumOf } from '../incentives/plan-reservation';
import { security } from '../rules';
import type { TransactionDefinition } from './definition';
import { stockPlanPoolAdjustmentOcf } from './stock-plan-pool-adjustment.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const poolAdjustmentPayload = Type.Object({
  planId: Id(),
  previousSharesReserved: DecimalText(),
  sharesReserved: DecimalText(),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_PLAN_POOL_ADJUSTMENT: Static<typeof poolAdjustmentPayload>;
  }
}

/** The least a plan may reserve: what its pools reserve, or what was exercised or retired. */
function floorOf(state: LedgerState, pl: PlanState) {
  const pooled = sumOf(poolsOf(state, pl.id).map((x) => x.sharesReserved));
  const spent = pl.exercised.plus(pl.retired);
  return { pooled, spent, floor: pooled.gt(spent) ? pooled : spent };
}

/** OCF TX_STOCK_PLAN_POOL_ADJUSTMENT: the plan's reservation grows from, or shrinks back to, its class. */
export const stockPlanPoolAdjustment: TransactionDefinition<'TX_STOCK_PLAN_POOL_ADJUSTMENT'> = {
  payload: poolAdjustmentPayload,
  definesRecord: false,
  ocf: stockPlanPoolAdjustmentOcf,
  scope: (p) => ({ plans: [p.planId] }),
  validate(state, { planId, sharesReserved }) {
    const pl = livePlan(state, planId, true);
    security(state, pl.securityId);
    const next = nonNegative(sharesReserved, 'sharesReserved');
    const { pooled, spent, floor } = floorOf(state, pl);
    if (next.lt(floor)) {
      throw new LedgerRuleError(
        'insufficientShares',
        `plan ${pl.name} needs at least ${toDecimalString(floor)} shares reserved (its pools reserve ${toDecimalString(pooled)}; ${toDecimalString(spent)} were exercised or retired)`,
      );
    }
  },
  apply(state, { planId, sharesReserved }, strict) {
    const pl = livePlan(state, planId, strict);
    const s = security(state, pl.securityId);
    const next = nonNegative(sharesReserved, 'sharesReserved');
    const delta = next.minus(pl.sharesReserved);
    if (delta.gt(0)) reserve(state, s, delta, strict);
    else s.reserved = s.reserved.plus(delta);
    pl.sharesReserved = next;
    state.put('plans', pl);
    state.put('securities', s);
  },
};
