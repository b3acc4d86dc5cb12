import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { livePlan, poolsOf } from '../incentives/lookups';
import { outstandingOfPool, outstandingReservation } from '../incentives/plan-reservation';
import { security } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** A plan without outstanding grants: its reservation returns to the class, its pools go with it. */
export const stockPlanDeleted: TransactionDefinition<'STOCK_PLAN_DELETED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ plans: [p.planId] }),
  validate(state, { planId }) {
    const pl = livePlan(state, planId, true);
    const busy = poolsOf(state, pl.id).find((x) => outstandingOfPool(x).gt(0));
    if (busy) {
      throw new LedgerRuleError(
        'conflict',
        `plan ${pl.name} has outstanding grants (pool ${busy.name}: ${toDecimalString(outstandingOfPool(busy))})`,
      );
    }
  },
  apply(state, { planId }, strict) {
    const pl = livePlan(state, planId, strict);
    const pools = poolsOf(state, pl.id);
    const s = security(state, pl.securityId);
    s.reserved = s.reserved.minus(outstandingReservation(pl));
    pl.deleted = true;
    for (const x of pools) {
      x.deleted = true;
      state.put('pools', x);
    }
    state.put('plans', pl);
    state.put('securities', s);
  },
};
