import { assertActiveHolding } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { convertibleCancellationOcf } from './convertible-cancellation.ocf';

export const convertibleCancellation: TransactionDefinition<'TX_CONVERTIBLE_CANCELLATION'> = {
  definesRecord: false,
  ocf: convertibleCancellationOcf,
  scope: (p) => ({ holdings: [p.holdingId] }),
  validate(state, { holdingId }) {
    assertActiveHolding(holding(state, holdingId));
  },
  apply(state, { holdingId }) {
    const h = holding(state, holdingId);
    h.status = 'cancelled';
    state.put('holdings', h);
  },
};
