import { exercise, validateExercise } from '../incentives/exercise';
import type { TransactionDefinition } from './definition';
import { exerciseOcf } from './exercise.ocf';

/** OCF TX_WARRANT_EXERCISE: shares of the warrant's class, out of its unissued balance. */
export const warrantExercise: TransactionDefinition<'TX_WARRANT_EXERCISE'> = {
  definesRecord: false,
  ocf: exerciseOcf('TX_WARRANT_EXERCISE', ['trigger_id']),
  refers: { createdShareholding: ['shareholdingId'] },
  scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
  validate: validateExercise,
  apply: exercise,
};
