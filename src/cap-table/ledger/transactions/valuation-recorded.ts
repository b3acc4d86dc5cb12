import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';
import { noRules } from './definition';

export const valuationRecorded: TransactionDefinition<'VALUATION_RECORDED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: () => ({}),
  validate: noRules,
  apply(state, { valuation }) {
    state.put('valuations', { ...valuation });
  },
};
