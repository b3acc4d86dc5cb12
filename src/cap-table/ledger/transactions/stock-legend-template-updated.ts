import { legend } from '../rules';
import type { TransactionDefinition } from './definition';
import { noRules } from './definition';

export const stockLegendTemplateUpdated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_UPDATED'> = {
  definesRecord: true,
  scope: (p) => ({ legends: [p.legendId] }),
  validate: noRules,
  apply(state, { legendId, changes }) {
    state.put('legends', Object.assign(legend(state, legendId), changes));
  },
};
