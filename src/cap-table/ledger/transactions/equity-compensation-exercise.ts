import { exercise, validateExercise } from '../incentives/exercise';
import type { TransactionDefinition } from './definition';
import { exerciseOcf } from './exercise.ocf';

/** OCF TX_EQUITY_COMPENSATION_EXERCISE: a plan's grant becomes shares out of the plan's reservation. */
export const equityCompensationExercise: TransactionDefinition<'TX_EQUITY_COMPENSATION_EXERCISE'> =
  {
    definesRecord: false,
    ocf: exerciseOcf('TX_EQUITY_COMPENSATION_EXERCISE'),
    refers: { createdShareholding: ['shareholdingId'] },
    scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
    validate: validateExercise,
    apply: exercise,
  };
