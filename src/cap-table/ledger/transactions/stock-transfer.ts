import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { DateText, DecimalText, Id, Nullable } from '../payload-fields';
import { compareDates, toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { assertActive, positive, security, shareholding, takeLowest } from '../rules';
import { randomUUID } from 'node:crypto';
import { commandQuantity, decimalOrNull } from '../command-values';
import type { TransactionDefinition, TransactionFacts } from './definition';
import { stockTransferOcf } from './stock-transfer.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockTransferPayload = Type.Object({
  sourceId: Id(),
  destinationId: Id(),
  toMemberId: Id(),
  quantity: DecimalText(),
  date: DateText(),
  pricePerShare: Nullable(DecimalText()),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_TRANSFER: Static<typeof stockTransferPayload>;
  }
}

/** What a transfer answers and its event carries: the transaction and both shareholdings after it. */
export async function transferResult(facts: TransactionFacts<'TX_STOCK_TRANSFER'>) {
  type View = { certificateNumber: string };
  return {
    id: facts.transactionId,
    source: (await facts.view('shareholdings', facts.payload.sourceId)) as View,
    destination: (await facts.view('shareholdings', facts.payload.destinationId)) as View,
  };
}

/** A transfer as a caller asks for it. */
export interface TransferInput {
  shareholdingId: string;
  toMemberId: string;
  quantity: string;
  date: string;
  pricePerShare?: string | null;
}

/**
 * OCF TX_STOCK_TRANSFER: the lowest-numbered shares of the source move to a new certificate of
 * the receiving holder; the source keeps the rest (or is `transferred` when none are left).
 */
export const stockTransfer: TransactionDefinition<'TX_STOCK_TRANSFER'> = {
  payload: stockTransferPayload,
  definesRecord: false,
  endsShareholdingAs: {
    status: 'transferred',
    certificateMark: 'CANCELLED (TRANSFERRED)',
    certificateNote:
      'CANCELLED (TRANSFERRED): every share of this certificate was transferred to other holders, ' +
      'under certificates of their own.',
  },
  ocf: stockTransferOcf,
  refers: {
    createdShareholding: ['destinationId'],
    members: [['toMemberId']],
    source: ['sourceId'],
  },
  scope: (p) => ({ shareholdings: [p.sourceId] }),
  command: {
    scope: (input: TransferInput) => ({ shareholdings: [input.shareholdingId] }),
    prepare: (_state, input: TransferInput, context) => ({
      effectiveDate: input.date,
      payload: {
        sourceId: input.shareholdingId,
        destinationId: randomUUID(),
        toMemberId: input.toMemberId,
        quantity: commandQuantity(input.quantity, 'quantity', context),
        date: input.date,
        pricePerShare: decimalOrNull(input.pricePerShare),
      },
    }),
  },
  event: {
    type: 'shareholding.transferred',
    public: true,
    audience: 'canViewCapitalizationOrSelf',
    object: documentedView('TransferView'),
    async describe(facts) {
      const result = await transferResult(facts);
      return {
        object: result,
        description: `shareholding ${result.source.certificateNumber}: ${facts.payload.quantity} shares transferred to ${result.destination.certificateNumber}`,
      };
    },
  },
  validate(state, t) {
    const source = shareholding(state, t.sourceId);
    assertActive(source);
    if (source.memberId === t.toMemberId) {
      throw new LedgerRuleError('invalid', 'toMember already holds these shares', 'toMember');
    }
    if (compareDates(t.date, source.issueDate) < 0) {
      throw new LedgerRuleError(
        'invalid',
        `date must not be before the issue date ${source.issueDate}`,
        'date',
      );
    }
    const quantity = positive(t.quantity, 'quantity');
    if (quantity.gt(source.quantity)) {
      throw new LedgerRuleError(
        'insufficientShares',
        `shareholding ${source.certificateNumber} holds ${toDecimalString(source.quantity)}, less than ${t.quantity}`,
      );
    }
  },
  apply(state, t) {
    const source = shareholding(state, t.sourceId);
    const quantity = positive(t.quantity, 'quantity');
    const s = security(state, source.securityId);
    source.quantity = source.quantity.minus(quantity);
    if (source.quantity.isZero()) source.status = 'transferred';
    state.put('shareholdings', {
      id: t.destinationId,
      memberId: t.toMemberId,
      securityId: source.securityId,
      quantity,
      pricePerShare: t.pricePerShare ?? source.pricePerShare,
      issueDate: t.date,
      certificateNumber: `${s.idPrefix}${s.nextCertificateNumber++}`,
      status: 'active',
      legendIds: [...source.legendIds],
      consideration: null,
      transferredFromId: source.id,
    });
    const [moved, kept] = takeLowest(state.blocks.get(source.id) ?? [], quantity);
    state.putBlocks(source.id, kept);
    state.putBlocks(t.destinationId, moved);
    state.put('shareholdings', source);
    state.put('securities', s);
  },
};
