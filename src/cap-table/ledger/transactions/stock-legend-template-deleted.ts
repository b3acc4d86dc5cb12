import { LedgerRuleError } from '../ledger-state';
import { legend } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** A legend still on an active shareholding stays. */
export const stockLegendTemplateDeleted: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_DELETED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ legendToDelete: p.legendId }),
  validate(state, { legendId }) {
    const l = legend(state, legendId);
    const user = [...state.shareholdings.values()].find(
      (h) => h.status === 'active' && h.legendIds.includes(legendId),
    );
    if (user) {
      throw new LedgerRuleError(
        'conflict',
        `legend ${l.name} is on shareholding ${user.certificateNumber}`,
      );
    }
  },
  apply(state, { legendId }) {
    const l = legend(state, legendId);
    l.deleted = true;
    state.put('legends', l);
  },
};
