import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

export const stockLegendTemplateCreated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_CREATED'> = {
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: () => ({}),
  validate: noRules,
  apply(state, { legend }) {
    state.put('legends', { ...legend, deleted: false });
  },
};
