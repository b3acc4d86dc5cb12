import { assertActiveHolding } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import { outstanding } from '../incentives/holding-figures';
import type { TransactionDefinition } from './definition';
import { warrantCancellationOcf } from './holding-cancellation.ocf';

export const warrantCancellation: TransactionDefinition<'TX_WARRANT_CANCELLATION'> = {
  definesRecord: false,
  ocf: warrantCancellationOcf,
  scope: (p) => ({ holdings: [p.holdingId] }),
  validate(state, { holdingId }) {
    assertActiveHolding(holding(state, holdingId));
  },
  apply(state, { holdingId }) {
    const h = holding(state, holdingId);
    h.cancelled = h.cancelled.plus(outstanding(h));
    h.status = 'cancelled';
    state.put('holdings', h);
  },
};
