import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { IssuanceAmendment } from '../transaction-types';
import { toDecimalString } from '../../../../libs/cap-math';
import { previousAttributes } from '../../../events';
import { commandQuantity, decimalOrNull, describeChanges } from '../command-values';
import { LedgerRuleError } from '../ledger-state';
import { assertActive, assertLegends, positive, resize, shareholding } from '../rules';
import type { TransactionDefinition } from './definition';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const issuanceAmendedPayload = Type.Object({
  shareholdingId: Id(),
  changes: IssuanceAmendment,
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_ISSUANCE_AMENDED: Static<typeof issuanceAmendedPayload>;
  }
}

/**
 * A correction as a caller asks for it: the fields given (PATCH), or all of them with an omitted
 * optional one cleared (PUT, `replace`). The holder and class are accepted only unchanged.
 */
export interface AmendIssuanceInput {
  shareholdingId: string;
  replace: boolean;
  quantity?: string;
  pricePerShare?: string | null;
  issueDate?: string;
  legendIds?: string[];
  consideration?: string | null;
  memberId?: string;
  securityId?: string;
}

/** A correction of an issuance: what it should have said (a quantity change renumbers at the top). */
export const stockIssuanceAmended: TransactionDefinition<'STOCK_ISSUANCE_AMENDED'> = {
  payload: issuanceAmendedPayload,
  definesRecord: false,
  refers: { amends: ['shareholdingId'] },
  // Folded into the issuance it corrects (see stock-issuance.ocf.ts).
  ocf: { export: { from: 'row' } },
  scope: (p) => ({ shareholdings: [p.shareholdingId], legends: p.changes.legendIds ?? [] }),
  command: {
    scope: (input: AmendIssuanceInput) => ({
      shareholdings: [input.shareholdingId],
      legends: input.legendIds ?? [],
    }),
    prepare(state, input: AmendIssuanceInput, context) {
      const current = shareholding(state, input.shareholdingId);
      assertActive(current);
      if (
        (input.memberId && input.memberId !== current.memberId) ||
        (input.securityId && input.securityId !== current.securityId)
      ) {
        throw new LedgerRuleError(
          'invalid',
          'the holder and class of a shareholding change only by a transfer',
        );
      }
      const { replace } = input;
      const wanted: IssuanceAmendment = {
        quantity:
          input.quantity === undefined
            ? undefined
            : commandQuantity(input.quantity, 'quantity', context),
        pricePerShare:
          replace || input.pricePerShare !== undefined
            ? decimalOrNull(input.pricePerShare)
            : undefined,
        issueDate: input.issueDate,
        legendIds: replace ? (input.legendIds ?? []) : input.legendIds,
        consideration:
          replace || input.consideration !== undefined ? (input.consideration ?? null) : undefined,
      };
      const now: Record<string, unknown> = {
        quantity: toDecimalString(current.quantity),
        pricePerShare: current.pricePerShare,
        issueDate: current.issueDate,
        legendIds: current.legendIds,
        consideration: current.consideration,
      };
      const changes = Object.fromEntries(
        Object.entries(wanted).filter(
          ([k, v]) => v !== undefined && JSON.stringify(now[k]) !== JSON.stringify(v),
        ),
      ) as IssuanceAmendment;
      if (!Object.keys(changes).length) return null;
      return {
        effectiveDate: context.today,
        payload: { shareholdingId: input.shareholdingId, changes },
      };
    },
  },
  event: {
    type: 'shareholding.updated',
    public: true,
    audience: 'canViewCapitalizationOrSelf',
    object: documentedView('ShareholdingView'),
    before: (p) => [{ kind: 'shareholdings', id: p.shareholdingId }],
    async describe(facts) {
      const id = facts.payload.shareholdingId;
      const before = facts.before('shareholdings', id) as Record<string, unknown>;
      const after = (await facts.view('shareholdings', id)) as Record<string, unknown>;
      return {
        object: after,
        previous: previousAttributes(before, after),
        subjects: [after.member as string],
        description: `shareholding ${String(after.certificateNumber)}: ${describeChanges(before, after, Object.keys(facts.payload.changes))}`,
      };
    },
  },
  validate(state, { shareholdingId, changes }) {
    assertActive(shareholding(state, shareholdingId));
    if (changes.legendIds) assertLegends(state, changes.legendIds);
  },
  apply(state, { shareholdingId, changes }, strict) {
    const h = shareholding(state, shareholdingId);
    if (changes.quantity !== undefined) {
      resize(state, h, positive(changes.quantity, 'quantity'), strict);
    }
    const { quantity: _quantity, ...rest } = changes;
    state.put('shareholdings', Object.assign(h, rest));
  },
};
