import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { PlanRecord } from '../incentive-types';
import { plan } from '../incentives/lookups';
import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockPlanUpdatedPayload = Type.Object({
  planId: Id(),
  changes: Type.Partial(Type.Omit(PlanRecord, ['id', 'securityId', 'sharesReserved'])),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_PLAN_UPDATED: Static<typeof stockPlanUpdatedPayload>;
  }
}

export const stockPlanUpdated: TransactionDefinition<'STOCK_PLAN_UPDATED'> = {
  payload: stockPlanUpdatedPayload,
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ plans: [p.planId] }),
  validate: noRules,
  apply(state, { planId, changes }) {
    state.put('plans', Object.assign(plan(state, planId), changes));
  },
};
