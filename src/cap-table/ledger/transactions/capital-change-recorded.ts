import type { TransactionDefinition } from './definition';
import { noRules } from './definition';

/** A contribution to or distribution from an entity (an LLC's capital account). */
export const capitalChangeRecorded: TransactionDefinition<'CAPITAL_CHANGE_RECORDED'> = {
  definesRecord: false,
  scope: () => ({}),
  validate: noRules,
  apply(state, { capitalChange }) {
    state.put('capitalChanges', { ...capitalChange });
  },
};
