import type { TransactionDefinition } from './definition';
import { noRules } from './definition';

export const valuationRecorded: TransactionDefinition<'VALUATION_RECORDED'> = {
  definesRecord: false,
  scope: () => ({}),
  validate: noRules,
  apply(state, { valuation }) {
    state.put('valuations', { ...valuation });
  },
};
