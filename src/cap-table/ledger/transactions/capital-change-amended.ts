import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { CapitalChangeChanges } from '../transaction-types';
import { previousAttributes } from '../../../events';
import { decimalOrNull } from '../command-values';
import { LedgerRuleError } from '../ledger-state';
import { found } from '../rules';
import type { TransactionDefinition } from './definition';
import { KEPT_IN_MANIFEST } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const capitalChangeAmendedPayload = Type.Object({
  capitalChangeId: Id(),
  changes: CapitalChangeChanges,
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    CAPITAL_CHANGE_AMENDED: Static<typeof capitalChangeAmendedPayload>;
  }
}

/** An edit of a capital change of an entity, as a caller asks for it: the fields given. */
export interface AmendCapitalChangeInput extends CapitalChangeChanges {
  capitalChangeId: string;
  /** The entity the path names: the change must be one of its. */
  entityId: string;
}

export const capitalChangeAmended: TransactionDefinition<'CAPITAL_CHANGE_AMENDED'> = {
  payload: capitalChangeAmendedPayload,
  definesRecord: false,
  ocf: KEPT_IN_MANIFEST,
  scope: (p) => ({ capitalChanges: [p.capitalChangeId] }),
  validate(state, { capitalChangeId }) {
    found(state.capitalChanges, capitalChangeId, 'capital change');
  },
  command: {
    scope: (input: AmendCapitalChangeInput) => ({ capitalChanges: [input.capitalChangeId] }),
    prepare(state, { capitalChangeId, entityId, ...given }: AmendCapitalChangeInput) {
      const current = state.capitalChanges.get(capitalChangeId);
      if (!current || current.entityId !== entityId) {
        throw new LedgerRuleError('notFound', 'no such capital change of this entity');
      }
      const wanted: CapitalChangeChanges = {
        ...given,
        amount: given.amount === undefined ? undefined : decimalOrNull(given.amount)!,
      };
      const changes = Object.fromEntries(
        Object.entries(wanted).filter(
          ([k, v]) => v !== undefined && current[k as keyof CapitalChangeChanges] !== v,
        ),
      ) as CapitalChangeChanges;
      if (!Object.keys(changes).length) return null;
      return {
        effectiveDate: changes.date ?? current.date,
        payload: { capitalChangeId, changes },
      };
    },
  },
  event: {
    type: 'capital_change.updated',
    public: false,
    audience: 'canViewCapTable',
    before: (p) => [{ kind: 'capitalChanges', id: p.capitalChangeId }],
    async describe(facts) {
      const id = facts.payload.capitalChangeId;
      const before = facts.before('capitalChanges', id) as Record<string, unknown>;
      const after = (await facts.view('capitalChanges', id)) as Record<string, unknown>;
      return {
        object: after,
        previous: previousAttributes(before, { ...after, updated: before.updated }),
        description: `capital ${String(after.type)} of ${String(after.date)}: changed ${Object.keys(facts.payload.changes).join(', ')}`,
      };
    },
  },
  apply(state, { capitalChangeId, changes }) {
    state.put(
      'capitalChanges',
      Object.assign(found(state.capitalChanges, capitalChangeId, 'capital change'), changes),
    );
  },
};
