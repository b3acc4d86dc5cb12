import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { DecimalText, Id } from '../payload-fields';
import { toDecimalString } from '../../../../libs/cap-math';
import { assertActive, security, shareholding } from '../rules';
import type { TransactionDefinition } from './definition';
import { stockCancellationOcf } from './stock-cancellation.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockCancellationPayload = Type.Object({
  shareholdingId: Id(),
  quantity: DecimalText(),
  reason: Type.String(),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_CANCELLATION: Static<typeof stockCancellationPayload>;
  }
}

/** OCF TX_STOCK_CANCELLATION (a void): the shares return to the unissued balance. */
export const stockCancellation: TransactionDefinition<'TX_STOCK_CANCELLATION'> = {
  payload: stockCancellationPayload,
  definesRecord: false,
  endsShareholdingAs: {
    status: 'voided',
    certificateMark: 'VOID',
    certificateNote: 'VOID: the shares of this certificate were cancelled and no longer exist.',
  },
  ocf: stockCancellationOcf,
  scope: (p) => ({ shareholdings: [p.shareholdingId] }),
  command: {
    scope: (input: { shareholdingId: string }) => ({ shareholdings: [input.shareholdingId] }),
    prepare: (state, { shareholdingId }: { shareholdingId: string }, context) => ({
      effectiveDate: context.today,
      payload: {
        shareholdingId,
        quantity: toDecimalString(shareholding(state, shareholdingId).quantity),
        reason: 'voided',
      },
    }),
  },
  event: {
    type: 'shareholding.voided',
    public: true,
    audience: 'canViewCapitalizationOrSelf',
    object: documentedView('ShareholdingView'),
    async describe(facts) {
      const view = (await facts.view('shareholdings', facts.payload.shareholdingId)) as {
        certificateNumber: string;
        quantity: string;
        member: string;
      };
      return {
        object: view,
        subjects: [view.member],
        description: `shareholding ${view.certificateNumber}: voided (${view.quantity} shares)`,
      };
    },
  },
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
