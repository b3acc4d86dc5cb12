import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { assertActiveHolding } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { convertibleCancellationOcf } from './convertible-cancellation.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const convertibleCancellationPayload = Type.Object({
  holdingId: Id(),
  reason: Type.String(),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_CONVERTIBLE_CANCELLATION: Static<typeof convertibleCancellationPayload>;
  }
}

export const convertibleCancellation: TransactionDefinition<'TX_CONVERTIBLE_CANCELLATION'> = {
  payload: convertibleCancellationPayload,
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
