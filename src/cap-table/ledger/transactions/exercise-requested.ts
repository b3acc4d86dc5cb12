import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { ExerciseRequestRecord } from '../incentive-types';
import { randomUUID } from 'node:crypto';
import { commandQuantity } from '../command-values';
import { assertExercisable } from '../incentives/exercise';
import { holding } from '../incentives/lookups';
import { notAfterToday, optionAt, type OptionPath } from '../incentives/option-commands';
import { positive } from '../rules';
import type { TransactionDefinition } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const exerciseRequestedPayload = Type.Object({ request: ExerciseRequestRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    EXERCISE_REQUESTED: Static<typeof exerciseRequestedPayload>;
  }
}

/** A holder's request to exercise, as they ask for it (`date` default today). */
export interface ExerciseRequestInput {
  path: OptionPath;
  quantity: string;
  date?: string;
  paymentMethod?: string | null;
}

/** A holder asks to exercise: pending until an editor approves (an exercise) or rejects it. */
export const exerciseRequested: TransactionDefinition<'EXERCISE_REQUESTED'> = {
  payload: exerciseRequestedPayload,
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: (p) => ({ holdings: [p.request.holdingId] }),
  command: {
    scope: (input: ExerciseRequestInput) => ({ holdings: [input.path.option] }),
    prepare(state, input: ExerciseRequestInput, context) {
      const date = notAfterToday(input.date ?? context.today, context);
      const quantity = commandQuantity(input.quantity, 'quantity', context);
      const option = optionAt(state, input.path);
      return {
        effectiveDate: date,
        payload: {
          request: {
            id: randomUUID(),
            holdingId: option.id,
            quantity,
            date,
            paymentMethod: input.paymentMethod ?? null,
            requestedByUserId: context.actorUserId,
          },
        },
      };
    },
  },
  event: {
    type: 'option.exercise_requested',
    public: true,
    audience: 'canViewOption',
    object: documentedView('ExerciseRequestView'),
    async describe(facts) {
      const { request } = facts.payload;
      const option = facts.state.holdings.get(request.holdingId)!;
      const view = (await facts.view('requests', request.id)) as { quantity: string };
      return {
        object: view,
        subjects: [option.memberId],
        description: `${option.type} ${option.id}: exercise of ${view.quantity} requested for ${request.date}`,
      };
    },
  },
  validate(state, { request }) {
    const h = holding(state, request.holdingId);
    assertExercisable(state, h, positive(request.quantity, 'quantity'), request.date);
  },
  apply(state, { request }) {
    holding(state, request.holdingId);
    positive(request.quantity, 'quantity');
    state.put('requests', { ...request, status: 'pending' });
  },
};
