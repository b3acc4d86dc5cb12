import { Type, type Static } from '@sinclair/typebox';
import { DecimalText, Id } from '../payload-fields';
import { assertActiveHolding } from '../incentives/holding-rules';
import { closePendingRequests } from '../incentives/exercise';
import { holding, plan, pool } from '../incentives/lookups';
import { outstanding } from '../incentives/holding-figures';
import { security } from '../rules';
import type { TransactionDefinition } from './definition';
import { equityCompensationCancellationOcf } from './holding-cancellation.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const grantCancellationPayload = Type.Object({
  holdingId: Id(),
  quantity: DecimalText(),
  returnedToPool: Type.Boolean({ description: 'As the plan said at the time.' }),
  reason: Type.String(),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_EQUITY_COMPENSATION_CANCELLATION: Static<typeof grantCancellationPayload>;
  }
}

/**
 * OCF TX_EQUITY_COMPENSATION_CANCELLATION: what is outstanding returns to the pool, or is retired
 * from the plan and its class's reservation, as the plan said at the time.
 */
export const equityCompensationCancellation: TransactionDefinition<'TX_EQUITY_COMPENSATION_CANCELLATION'> =
  {
    payload: grantCancellationPayload,
    definesRecord: false,
    ocf: equityCompensationCancellationOcf,
    scope: (p) => ({ holdings: [p.holdingId] }),
    validate(state, { holdingId }) {
      assertActiveHolding(holding(state, holdingId));
    },
    apply(state, { holdingId, returnedToPool }) {
      const h = holding(state, holdingId);
      const quantity = outstanding(h);
      h.cancelled = h.cancelled.plus(quantity);
      h.status = 'cancelled';
      closePendingRequests(state, h.id);
      const po = pool(state, h.poolId ?? '');
      po.cancelled = po.cancelled.plus(quantity);
      if (returnedToPool) {
        po.returned = po.returned.plus(quantity);
      } else {
        const pl = plan(state, po.planId);
        pl.retired = pl.retired.plus(quantity);
        const s = security(state, pl.securityId);
        s.reserved = s.reserved.minus(quantity);
        state.put('plans', pl);
        state.put('securities', s);
      }
      state.put('pools', po);
      state.put('holdings', h);
    },
  };
