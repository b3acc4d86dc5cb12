import { exercise, validateExercise } from '../incentives/exercise';
import type { TransactionDefinition } from './definition';

/** OCF TX_EQUITY_COMPENSATION_EXERCISE: a plan's grant becomes shares out of the plan's reservation. */
export const equityCompensationExercise: TransactionDefinition<'TX_EQUITY_COMPENSATION_EXERCISE'> =
  {
    definesRecord: false,
    refers: { createdShareholding: ['shareholdingId'] },
    scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
    validate: validateExercise,
    apply: exercise,
  };
