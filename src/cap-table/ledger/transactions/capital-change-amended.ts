import { found } from '../rules';
import { type TransactionDefinition, noRules } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

export const capitalChangeAmended: TransactionDefinition<'CAPITAL_CHANGE_AMENDED'> = {
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: (p) => ({ capitalChanges: [p.capitalChangeId] }),
  validate: noRules,
  apply(state, { capitalChangeId, changes }) {
    state.put(
      'capitalChanges',
      Object.assign(found(state.capitalChanges, capitalChangeId, 'capital change'), changes),
    );
  },
};
