import { Type, type Static } from '@sinclair/typebox';
import { CapitalChangeRecord } from '../transaction-types';
import { randomUUID } from 'node:crypto';
import { decimalOrNull } from '../command-values';
import { LedgerRuleError } from '../ledger-state';
import { type TransactionDefinition, noRules } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const capitalChangeRecordedPayload = Type.Object({ capitalChange: CapitalChangeRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    CAPITAL_CHANGE_RECORDED: Static<typeof capitalChangeRecordedPayload>;
  }
}

/** A capital change as a caller records it (`POST /v1/entity/:entity/capitalChange`). */
export interface CapitalChangeInput extends Omit<
  CapitalChangeRecord,
  'id' | 'memberId' | 'description'
> {
  /** The member the body names, as the organization knows it (null: none such). */
  member: { id: string; entityId: string | null; name: string } | null;
  description?: string | null;
}

/** A contribution to or distribution from an entity (an LLC's capital account). */
export const capitalChangeRecorded: TransactionDefinition<'CAPITAL_CHANGE_RECORDED'> = {
  payload: capitalChangeRecordedPayload,
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: () => ({}),
  validate: noRules,
  command: {
    scope: () => ({}),
    prepare(_state, { member, ...input }: CapitalChangeInput) {
      if (!member || member.entityId !== input.entityId) {
        throw new LedgerRuleError('invalid', 'member is not the member of this entity', 'member');
      }
      return {
        effectiveDate: input.date,
        payload: {
          capitalChange: {
            id: randomUUID(),
            memberId: member.id,
            entityId: input.entityId,
            date: input.date,
            amount: decimalOrNull(input.amount)!,
            currency: input.currency,
            type: input.type,
            description: input.description ?? null,
          },
        },
      };
    },
  },
  event: {
    type: 'capital_change.created',
    public: false,
    audience: 'canViewCapTable',
    async describe(facts, _answer, input: CapitalChangeInput) {
      const view = (await facts.view('capitalChanges', facts.payload.capitalChange.id)) as Record<
        string,
        string
      >;
      return {
        object: view,
        description: `capital ${view.type} of ${view.amount} ${view.currency} by ${input.member!.name} on ${view.date}`,
      };
    },
  },
  apply(state, { capitalChange }) {
    state.put('capitalChanges', { ...capitalChange });
  },
};
