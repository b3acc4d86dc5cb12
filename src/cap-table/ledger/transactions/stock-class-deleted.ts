import { security } from '../rules';
import { LedgerRuleError } from '../ledger-state';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

export const stockClassDeleted: TransactionDefinition<'STOCK_CLASS_DELETED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ securities: [p.securityId] }),
  validate(state, { securityId }) {
    const s = security(state, securityId);
    if (!s.issued.isZero())
      throw new LedgerRuleError('conflict', `class ${s.name} has issued shares`);
    if (!s.reserved.isZero()) {
      throw new LedgerRuleError('conflict', `class ${s.name} has shares reserved for a plan`);
    }
  },
  apply(state, { securityId }) {
    const s = security(state, securityId);
    s.deleted = true;
    state.put('securities', s);
  },
};
