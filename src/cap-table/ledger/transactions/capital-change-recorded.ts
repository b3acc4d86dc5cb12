import { type TransactionDefinition, noRules } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

/** A contribution to or distribution from an entity (an LLC's capital account). */
export const capitalChangeRecorded: TransactionDefinition<'CAPITAL_CHANGE_RECORDED'> = {
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: () => ({}),
  validate: noRules,
  apply(state, { capitalChange }) {
    state.put('capitalChanges', { ...capitalChange });
  },
};
