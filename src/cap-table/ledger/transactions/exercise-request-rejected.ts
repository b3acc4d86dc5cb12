import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { optionAt, type OptionPath } from '../incentives/option-commands';
import { LedgerRuleError } from '../ledger-state';
import { found } from '../rules';
import type { TransactionDefinition } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const exerciseRequestRejectedPayload = Type.Object({ requestId: Id() });

declare module '../transaction-types' {
  interface TransactionPayloads {
    EXERCISE_REQUEST_REJECTED: Static<typeof exerciseRequestRejectedPayload>;
  }
}

/** A rejection as an editor asks for it: the request, under the option's path. */
export interface RejectRequestInput {
  path: OptionPath;
  requestId: string;
}

export const exerciseRequestRejected: TransactionDefinition<'EXERCISE_REQUEST_REJECTED'> = {
  payload: exerciseRequestRejectedPayload,
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: (p) => ({ requests: [p.requestId] }),
  command: {
    scope: (input: RejectRequestInput) => ({ requests: [input.requestId] }),
    prepare(state, { path, requestId }: RejectRequestInput, context) {
      const request = state.requests.get(requestId);
      if (!request || request.holdingId !== path.option) {
        throw new LedgerRuleError('notFound', 'no such exercise request of this option');
      }
      optionAt(state, path);
      return { effectiveDate: context.today, payload: { requestId } };
    },
  },
  event: {
    type: 'option.exercise_request_rejected',
    public: false,
    audience: 'canViewOption',
    async describe(facts) {
      const request = facts.state.requests.get(facts.payload.requestId)!;
      const option = facts.state.holdings.get(request.holdingId)!;
      const view = (await facts.view('requests', request.id)) as {
        quantity: string;
        date: string;
      };
      return {
        object: view,
        subjects: [option.memberId],
        description: `${option.type} ${option.id}: exercise request of ${view.quantity} for ${view.date} rejected`,
      };
    },
  },
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
