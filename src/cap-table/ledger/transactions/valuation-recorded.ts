import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

export const valuationRecorded: TransactionDefinition<'VALUATION_RECORDED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: () => ({}),
  validate: noRules,
  apply(state, { valuation }) {
    state.put('valuations', { ...valuation });
  },
};
