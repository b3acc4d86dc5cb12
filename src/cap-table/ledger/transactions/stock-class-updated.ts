import { security } from '../rules';
import type { TransactionDefinition } from './definition';
import { noRules } from './definition';

export const stockClassUpdated: TransactionDefinition<'STOCK_CLASS_UPDATED'> = {
  definesRecord: true,
  scope: (p) => ({ securities: [p.securityId] }),
  validate: noRules,
  apply(state, { securityId, changes }) {
    state.put('securities', Object.assign(security(state, securityId), changes));
  },
};
