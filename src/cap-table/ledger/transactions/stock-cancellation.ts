import { assertActive, security, shareholding } from '../rules';
import type { TransactionDefinition } from './definition';
import { stockCancellationOcf } from './stock-cancellation.ocf';

/** OCF TX_STOCK_CANCELLATION (a void): the shares return to the unissued balance. */
export const stockCancellation: TransactionDefinition<'TX_STOCK_CANCELLATION'> = {
  definesRecord: false,
  ocf: stockCancellationOcf,
  scope: (p) => ({ shareholdings: [p.shareholdingId] }),
  validate(state, { shareholdingId }) {
    assertActive(shareholding(state, shareholdingId));
  },
  apply(state, { shareholdingId }) {
    const h = shareholding(state, shareholdingId);
    const s = security(state, h.securityId);
    s.issued = s.issued.minus(h.quantity);
    h.status = 'voided';
    // Their numbers are retired.
    state.putBlocks(h.id, []);
    state.put('shareholdings', h);
    state.put('securities', s);
  },
};
