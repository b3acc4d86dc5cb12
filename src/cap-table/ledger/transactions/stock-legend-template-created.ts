import type { TransactionDefinition } from './definition';
import { noRules } from './definition';

export const stockLegendTemplateCreated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_CREATED'> = {
  definesRecord: true,
  scope: () => ({}),
  validate: noRules,
  apply(state, { legend }) {
    state.put('legends', { ...legend, deleted: false });
  },
};
