import { LedgerRuleError } from '../ledger-state';
import { found } from '../rules';
import type { TransactionDefinition } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

export const exerciseRequestRejected: TransactionDefinition<'EXERCISE_REQUEST_REJECTED'> = {
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: (p) => ({ requests: [p.requestId] }),
  validate(state, { requestId }) {
    const r = found(state.requests, requestId, 'exercise request');
    if (r.status !== 'pending') {
      throw new LedgerRuleError('conflict', `the exercise request is ${r.status}`);
    }
  },
  apply(state, { requestId }) {
    const r = found(state.requests, requestId, 'exercise request');
    r.status = 'rejected';
    state.put('requests', r);
  },
};
