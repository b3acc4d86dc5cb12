import { found } from '../rules';
import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

export const valuationAmended: TransactionDefinition<'VALUATION_AMENDED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ valuations: [p.valuationId] }),
  validate: noRules,
  apply(state, { valuationId, changes }) {
    state.put(
      'valuations',
      Object.assign(found(state.valuations, valuationId, 'valuation'), changes),
    );
  },
};
