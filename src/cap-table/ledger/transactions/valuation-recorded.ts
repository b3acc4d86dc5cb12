import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { ValuationRecord } from '../transaction-types';
import { randomUUID } from 'node:crypto';
import { LedgerRuleError, type LedgerState } from '../ledger-state';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const valuationRecordedPayload = Type.Object({ valuation: ValuationRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    VALUATION_RECORDED: Static<typeof valuationRecordedPayload>;
  }
}

/** A valuation's fields as a caller gives them (`PUT /v1/valuation`, canonical decimals). */
export type ValuationInput = Omit<ValuationRecord, 'id'>;

/** The class a valuation values: a live class of the organization (the scope loaded it). */
export function assertValuedClass(state: LedgerState, securityId: string | null | undefined) {
  if (!securityId) return;
  const s = state.securities.get(securityId);
  if (!s || s.deleted) {
    throw new LedgerRuleError('notFound', 'security is not a class of this organization');
  }
}

/** A valuation (409A and the like): a price per share in effect from a date. */
export const valuationRecorded: TransactionDefinition<'VALUATION_RECORDED'> = {
  payload: valuationRecordedPayload,
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: ({ valuation }) => ({ securities: valuation.securityId ? [valuation.securityId] : [] }),
  validate(state, { valuation }) {
    assertValuedClass(state, valuation.securityId);
  },
  command: {
    scope: (input: ValuationInput) => ({
      securities: input.securityId ? [input.securityId] : [],
    }),
    prepare: (_state, input: ValuationInput) => ({
      effectiveDate: input.effectiveDate,
      payload: { valuation: { id: randomUUID(), ...input } },
    }),
  },
  event: {
    type: 'valuation.created',
    public: true,
    audience: 'canViewValuation',
    object: documentedView('ValuationView'),
    async describe(facts) {
      const view = (await facts.view('valuations', facts.payload.valuation.id)) as Record<
        string,
        string
      >;
      return {
        object: view,
        description: `valuation ${view.type} of ${view.effectiveDate}: ${view.pricePerShare} per share`,
      };
    },
  },
  apply(state, { valuation }) {
    state.put('valuations', { ...valuation });
  },
};
