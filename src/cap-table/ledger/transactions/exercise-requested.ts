import { assertExercisable } from '../incentives/exercise';
import { holding } from '../incentives/lookups';
import { positive } from '../rules';
import type { TransactionDefinition } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

/** A holder asks to exercise: pending until an editor approves (an exercise) or rejects it. */
export const exerciseRequested: TransactionDefinition<'EXERCISE_REQUESTED'> = {
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: (p) => ({ holdings: [p.request.holdingId] }),
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
