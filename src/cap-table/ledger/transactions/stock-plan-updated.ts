import { plan } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { noRules } from './definition';

export const stockPlanUpdated: TransactionDefinition<'STOCK_PLAN_UPDATED'> = {
  definesRecord: true,
  scope: (p) => ({ plans: [p.planId] }),
  validate: noRules,
  apply(state, { planId, changes }) {
    state.put('plans', Object.assign(plan(state, planId), changes));
  },
};
