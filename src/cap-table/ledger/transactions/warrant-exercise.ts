import { exercise, validateExercise } from '../incentive-rules';
import type { TransactionDefinition } from './definition';
import { exerciseExport, exerciseImport } from './exercise.ocf';

/** OCF TX_WARRANT_EXERCISE: shares of the warrant's class, out of its unissued balance. */
export const warrantExercise: TransactionDefinition<'TX_WARRANT_EXERCISE'> = {
  definesRecord: false,
  ocf: {
    export: exerciseExport,
    import: {
      objects: {
        TX_WARRANT_EXERCISE: {
          keeps: [
            'object_type',
            'id',
            'security_id',
            'date',
            'resulting_security_ids',
            'quantity',
            'consideration_text',
            'balance_security_id',
            'trigger_id',
          ],
          read: (l, ctx) => exerciseImport(l, ctx, 'TX_WARRANT_EXERCISE'),
        },
      },
    },
  },
  refers: { createdShareholding: ['shareholdingId'] },
  scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
  validate: validateExercise,
  apply: exercise,
};
