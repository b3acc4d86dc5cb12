import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { DateText, DecimalText, Id, Nullable } from '../payload-fields';
import {
  assertIssuable,
  assertLegends,
  assertLiveClass,
  addShareholding,
  issue,
  positive,
  security,
} from '../rules';
import { randomUUID } from 'node:crypto';
import { commandQuantity, decimalOrNull } from '../command-values';
import type { TransactionDefinition } from './definition';
import { stockIssuanceOcf } from './stock-issuance.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockIssuancePayload = Type.Object({
  shareholdingId: Id(),
  securityId: Id(),
  memberId: Id(),
  quantity: DecimalText(),
  pricePerShare: Nullable(DecimalText()),
  issueDate: DateText(),
  legendIds: Type.Array(Id()),
  consideration: Nullable(Type.String()),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_ISSUANCE: Static<typeof stockIssuancePayload>;
  }
}

/** Shares to issue, as a caller asks for them. */
export interface IssueInput {
  securityId: string;
  memberId: string;
  quantity: string;
  pricePerShare?: string | null;
  issueDate: string;
  /** The certificate's legends (the caller gives the class's defaults when none were named). */
  legendIds: string[];
  consideration?: string | null;
}

/** OCF TX_STOCK_ISSUANCE: a new certificate out of the class's unissued shares. */
export const stockIssuance: TransactionDefinition<'TX_STOCK_ISSUANCE'> = {
  payload: stockIssuancePayload,
  definesRecord: false,
  ocf: stockIssuanceOcf,
  refers: { createdShareholding: ['shareholdingId'], members: [['memberId']] },
  scope: (p) => ({ securities: [p.securityId], legends: p.legendIds }),
  validate(state, p) {
    const s = security(state, p.securityId);
    const quantity = positive(p.quantity, 'quantity');
    assertLiveClass(s);
    assertLegends(state, p.legendIds);
    assertIssuable(s, quantity);
  },
  command: {
    scope: (input: IssueInput) => ({ securities: [input.securityId], legends: input.legendIds }),
    prepare: (_state, input: IssueInput, context) => ({
      effectiveDate: input.issueDate,
      payload: {
        shareholdingId: randomUUID(),
        securityId: input.securityId,
        memberId: input.memberId,
        quantity: commandQuantity(input.quantity, 'quantity', context),
        pricePerShare: decimalOrNull(input.pricePerShare),
        issueDate: input.issueDate,
        legendIds: input.legendIds,
        consideration: input.consideration ?? null,
      },
    }),
  },
  event: {
    type: 'shareholding.created',
    public: true,
    audience: 'canViewCapitalizationOrSelf',
    object: documentedView('ShareholdingView'),
    async describe(facts) {
      const view = (await facts.view('shareholdings', facts.payload.shareholdingId)) as {
        certificateNumber: string;
        quantity: string;
        member: string;
      };
      const s = facts.state.securities.get(facts.payload.securityId)!;
      return {
        object: view,
        subjects: [view.member],
        description: `shareholding ${view.certificateNumber}: ${view.quantity} shares of ${s.name} issued`,
      };
    },
  },
  apply(state, p, strict) {
    const s = security(state, p.securityId);
    const quantity = positive(p.quantity, 'quantity');
    issue(state, s, quantity, strict);
    addShareholding(state, s, {
      id: p.shareholdingId,
      memberId: p.memberId,
      securityId: p.securityId,
      quantity,
      pricePerShare: p.pricePerShare,
      issueDate: p.issueDate,
      legendIds: p.legendIds,
      consideration: p.consideration,
    });
  },
};
