import type { Static } from '@sinclair/typebox';
import { ExercisePayload } from '../incentive-types';
import { exercise, validateExercise } from '../incentives/exercise';
import type { TransactionDefinition } from './definition';
import { exerciseOcf } from './exercise.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const warrantExercisePayload = ExercisePayload;

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_WARRANT_EXERCISE: Static<typeof warrantExercisePayload>;
  }
}

/** OCF TX_WARRANT_EXERCISE: shares of the warrant's class, out of its unissued balance. */
export const warrantExercise: TransactionDefinition<'TX_WARRANT_EXERCISE'> = {
  payload: warrantExercisePayload,
  definesRecord: false,
  ocf: exerciseOcf('TX_WARRANT_EXERCISE', ['trigger_id']),
  refers: { createdShareholding: ['shareholdingId'] },
  scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
  validate: validateExercise,
  apply: exercise,
};
