import { documentedHolding } from '../transactions/definition';
import { toDecimalString } from '../../../../libs/cap-math';
import type { HoldingView } from '../../holdings/holding.view';
import type { LedgerCommand, Step } from '../command';
import { outstanding } from '../incentives/holding-figures';
import { assertActiveHolding } from '../incentives/holding-rules';
import { holdingLabel, isGrantType } from '../incentive-types';
import { LedgerRuleError } from '../ledger-state';

/**
 * Cancelling a holding (DELETE): a grant's outstanding shares go back to its pool or leave the
 * plan, as the plan's defaultCancellationBehavior says; a warrant's are cancelled; a note or SAFE
 * is cancelled. The cancellation transaction of its kind, and one event `holding.deleted`.
 */
export const holdingCancellation: LedgerCommand<{ holdingId: string }> = {
  name: 'HOLDING_CANCELLATION',
  scope: ({ holdingId }) => ({ holdings: [holdingId] }),
  prepare(state, { holdingId }, context) {
    const h = state.holdings.get(holdingId);
    // Which transaction cancels it depends on what it is.
    if (!h) throw new LedgerRuleError('notFound', 'no such holding');
    assertActiveHolding(h);
    const date = context.today;
    const reason = 'cancelled';
    const quantity = toDecimalString(outstanding(h));
    const step: Step = isGrantType(h.type)
      ? {
          type: 'TX_EQUITY_COMPENSATION_CANCELLATION',
          effectiveDate: date,
          payload: {
            holdingId,
            quantity,
            returnedToPool: state.plans.get(h.planId!)?.defaultCancellationBehavior !== 'retire',
            reason,
          },
        }
      : h.type === 'warrant'
        ? {
            type: 'TX_WARRANT_CANCELLATION',
            effectiveDate: date,
            payload: { holdingId, quantity, reason },
          }
        : {
            type: 'TX_CONVERTIBLE_CANCELLATION',
            effectiveDate: date,
            payload: { holdingId, reason },
          };
    return [step];
  },
  event: {
    type: 'holding.deleted',
    public: true,
    audience: 'canViewHolding',
    object: documentedHolding,
    async describe(run, { holdingId }) {
      const [step] = run.steps;
      const view = (await run.view('holdings', holdingId)) as HoldingView;
      const returned =
        step.type === 'TX_EQUITY_COMPENSATION_CANCELLATION'
          ? step.payload.returnedToPool
            ? ', returned to its pool'
            : ', retired from the plan'
          : '';
      const outstandingShares =
        'outstanding' in view ? ` (${view.cancelled} outstanding shares${returned})` : '';
      return {
        object: view,
        subjects: [view.member],
        description: `${holdingLabel(view.type)} ${holdingId}: cancelled${outstandingShares}`,
      };
    },
  },
};
