import { Type, type Static } from '@sinclair/typebox';
import { DecimalText, Id } from '../payload-fields';
import { assertActiveHolding } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import { outstanding } from '../incentives/holding-figures';
import type { TransactionDefinition } from './definition';
import { warrantCancellationOcf } from './holding-cancellation.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const warrantCancellationPayload = Type.Object({
  holdingId: Id(),
  quantity: DecimalText(),
  reason: Type.String(),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_WARRANT_CANCELLATION: Static<typeof warrantCancellationPayload>;
  }
}

export const warrantCancellation: TransactionDefinition<'TX_WARRANT_CANCELLATION'> = {
  payload: warrantCancellationPayload,
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
