import { plan } from '../incentives/lookups';
import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

export const stockPlanUpdated: TransactionDefinition<'STOCK_PLAN_UPDATED'> = {
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ plans: [p.planId] }),
  validate: noRules,
  apply(state, { planId, changes }) {
    state.put('plans', Object.assign(plan(state, planId), changes));
  },
};
