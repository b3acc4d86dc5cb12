import { legend } from '../rules';
import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

export const stockLegendTemplateUpdated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_UPDATED'> = {
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ legends: [p.legendId] }),
  validate: noRules,
  apply(state, { legendId, changes }) {
    state.put('legends', Object.assign(legend(state, legendId), changes));
  },
};
