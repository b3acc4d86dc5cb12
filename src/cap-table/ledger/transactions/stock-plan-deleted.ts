import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { toDecimalString } from '../../../../libs/cap-math';
import { planToChange } from '../../plans/plan-changes';
import type { PlanView } from '../../plans/plan.view';
import { LedgerRuleError } from '../ledger-state';
import { livePlan, poolsOf } from '../incentives/lookups';
import { outstandingOfPool, outstandingReservation } from '../incentives/plan-reservation';
import { security } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockPlanDeletedPayload = Type.Object({ planId: Id() });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_PLAN_DELETED: Static<typeof stockPlanDeletedPayload>;
  }
}

/** A plan without outstanding grants: its reservation returns to the class, its pools go with it. */
export const stockPlanDeleted: TransactionDefinition<'STOCK_PLAN_DELETED'> = {
  payload: stockPlanDeletedPayload,
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
  command: {
    scope: (input: { planId: string }) => ({ plans: [input.planId] }),
    prepare(state, { planId }: { planId: string }, context) {
      planToChange(state, planId);
      return { effectiveDate: context.today, payload: { planId } };
    },
  },
  event: {
    type: 'plan.deleted',
    public: false,
    audience: 'canViewOrganization',
    before: (p) => [{ kind: 'plans', id: p.planId }],
    async describe(facts) {
      const view = facts.before('plans', facts.payload.planId) as PlanView;
      return {
        object: view,
        description: `plan ${view.name}: deleted, ${view.sharesReserved} reserved shares released`,
      };
    },
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
