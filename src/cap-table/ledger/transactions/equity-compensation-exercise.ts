import { exercise, validateExercise } from '../incentive-rules';
import type { TransactionDefinition } from './definition';
import { exerciseExport, exerciseImport } from './exercise.ocf';

/** OCF TX_EQUITY_COMPENSATION_EXERCISE: a plan's grant becomes shares out of the plan's reservation. */
export const equityCompensationExercise: TransactionDefinition<'TX_EQUITY_COMPENSATION_EXERCISE'> =
  {
    definesRecord: false,
    ocf: {
      export: exerciseExport,
      import: {
        objects: {
          TX_EQUITY_COMPENSATION_EXERCISE: {
            keeps: [
              'object_type',
              'id',
              'security_id',
              'date',
              'resulting_security_ids',
              'quantity',
              'consideration_text',
              'balance_security_id',
            ],
            read: (l, ctx) => exerciseImport(l, ctx, 'TX_EQUITY_COMPENSATION_EXERCISE'),
          },
        },
      },
    },
    refers: { createdShareholding: ['shareholdingId'] },
    scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
    validate: validateExercise,
    apply: exercise,
  };
