import { documentedView } from './definition';
import type { Static } from '@sinclair/typebox';
import { ExercisePayload } from '../incentive-types';
import { randomUUID } from 'node:crypto';
import { commandQuantity, decimalOrNull } from '../command-values';
import { exercise, validateExercise } from '../incentives/exercise';
import { notAfterToday, optionAt, type OptionPath } from '../incentives/option-commands';
import { LedgerRuleError } from '../ledger-state';
import type { TransactionDefinition, TransactionFacts } from './definition';
import { exerciseOcf } from './exercise.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const grantExercisePayload = ExercisePayload;

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_EQUITY_COMPENSATION_EXERCISE: Static<typeof grantExercisePayload>;
  }
}

/**
 * An editor's exercise as they ask for it: with `requestId`, the approval of that pending
 * request, whose quantity, date and payment method apply unless given (`date` else today).
 */
export interface ExerciseInput {
  path: OptionPath;
  quantity?: string;
  date?: string;
  paymentMethod?: string | null;
  requestId?: string;
  /** The new shareholding's legends (the caller gives the organization's defaults). */
  legendIds: string[];
}

/** What an exercise answers and its event carries. */
export function exerciseResult(facts: TransactionFacts<'TX_EQUITY_COMPENSATION_EXERCISE'>) {
  const x = facts.payload;
  return {
    id: facts.transactionId,
    option: x.holdingId,
    quantity: x.quantity,
    shareholding: x.shareholdingId,
    date: x.date,
    paymentMethod: x.paymentMethod,
    request: x.requestId,
  };
}

/** OCF TX_EQUITY_COMPENSATION_EXERCISE: a plan's grant becomes shares out of the plan's reservation. */
export const equityCompensationExercise: TransactionDefinition<'TX_EQUITY_COMPENSATION_EXERCISE'> =
  {
    payload: grantExercisePayload,
    definesRecord: false,
    ocf: exerciseOcf('TX_EQUITY_COMPENSATION_EXERCISE'),
    refers: { createdShareholding: ['shareholdingId'] },
    scope: (p) => ({ holdings: [p.holdingId], legends: p.legendIds }),
    command: {
      scope: (input: ExerciseInput) => ({
        holdings: [input.path.option],
        requests: input.requestId ? [input.requestId] : [],
        legends: input.legendIds,
      }),
      prepare(state, input: ExerciseInput, context) {
        if (input.date !== undefined) notAfterToday(input.date, context);
        const option = optionAt(state, input.path);
        const request = input.requestId ? state.requests.get(input.requestId) : undefined;
        if (input.requestId && (!request || request.holdingId !== option.id)) {
          throw new LedgerRuleError('notFound', 'no such exercise request of this option');
        }
        // Its quantity, date and payment method are the exercise's defaults only while pending.
        if (request && request.status !== 'pending') {
          throw new LedgerRuleError('conflict', `the exercise request is ${request.status}`);
        }
        const date = input.date ?? request?.date ?? context.today;
        return {
          effectiveDate: date,
          payload: {
            holdingId: option.id,
            requestId: request?.id ?? null,
            quantity: commandQuantity(input.quantity ?? request!.quantity, 'quantity', context),
            date,
            paymentMethod:
              input.paymentMethod !== undefined
                ? (input.paymentMethod ?? null)
                : (request?.paymentMethod ?? null),
            shareholdingId: randomUUID(),
            legendIds: input.legendIds,
          },
        };
      },
    },
    event: {
      type: 'option.exercised',
      public: true,
      audience: 'canViewOption',
      object: documentedView('ExerciseView'),
      async describe(facts) {
        const x = facts.payload;
        const option = facts.state.holdings.get(x.holdingId)!;
        const shares = facts.state.shareholdings.get(x.shareholdingId)!;
        const security = facts.state.securities.get(shares.securityId)!;
        const price = decimalOrNull(option.terms.exercisePrice);
        return {
          object: exerciseResult(facts),
          subjects: [option.memberId],
          description:
            `${option.type} ${option.id}: ${x.quantity} exercised into shareholding ${shares.certificateNumber} of ${security.name}` +
            (price === null ? '' : ` at ${price}`) +
            (x.requestId ? ' (request approved)' : ''),
        };
      },
    },
    validate: validateExercise,
    apply: exercise,
  };
