import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';
import { noRules } from './definition';

export const stockLegendTemplateCreated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_CREATED'> = {
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: () => ({}),
  validate: noRules,
  apply(state, { legend }) {
    state.put('legends', { ...legend, deleted: false });
  },
};
