import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { ValuationChanges } from '../transaction-types';
import { previousAttributes } from '../../../events';
import { found } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';
import { assertValuedClass, type ValuationInput } from './valuation-recorded';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const valuationAmendedPayload = Type.Object({
  valuationId: Id(),
  changes: ValuationChanges,
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    VALUATION_AMENDED: Static<typeof valuationAmendedPayload>;
  }
}

/** A valuation's fields as a caller replaces them (`PUT /v1/valuation` with its `id`). */
export interface AmendValuationInput extends ValuationInput {
  valuationId: string;
}

/** A valuation corrected: the fields that changed. */
export const valuationAmended: TransactionDefinition<'VALUATION_AMENDED'> = {
  payload: valuationAmendedPayload,
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({
    valuations: [p.valuationId],
    securities: p.changes.securityId ? [p.changes.securityId] : [],
  }),
  validate(state, { valuationId, changes }) {
    found(state.valuations, valuationId, 'valuation');
    assertValuedClass(state, changes.securityId);
  },
  command: {
    scope: (input: AmendValuationInput) => ({
      valuations: [input.valuationId],
      securities: input.securityId ? [input.securityId] : [],
    }),
    prepare(state, { valuationId, ...wanted }: AmendValuationInput) {
      // The class named is checked even when it stays: a valuation names a live class.
      assertValuedClass(state, wanted.securityId);
      const current = found(state.valuations, valuationId, 'valuation');
      const changes = Object.fromEntries(
        Object.entries(wanted).filter(([k, v]) => current[k as keyof ValuationChanges] !== v),
      ) as ValuationChanges;
      if (!Object.keys(changes).length) return null;
      return { effectiveDate: wanted.effectiveDate, payload: { valuationId, changes } };
    },
  },
  event: {
    type: 'valuation.updated',
    public: true,
    audience: 'canViewValuation',
    object: documentedView('ValuationView'),
    before: (p) => [{ kind: 'valuations', id: p.valuationId }],
    async describe(facts) {
      const id = facts.payload.valuationId;
      const before = facts.before('valuations', id) as Record<string, unknown>;
      const after = (await facts.view('valuations', id)) as Record<string, unknown>;
      // Named as the API names them (`security`, not the column's `securityId`).
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      return {
        object: after,
        previous,
        description: `valuation ${String(after.type)} of ${String(after.effectiveDate)}: changed ${Object.keys(previous).join(', ')}`,
      };
    },
  },
  apply(state, { valuationId, changes }) {
    state.put(
      'valuations',
      Object.assign(found(state.valuations, valuationId, 'valuation'), changes),
    );
  },
};
