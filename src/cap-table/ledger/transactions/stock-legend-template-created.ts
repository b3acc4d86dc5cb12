import { Type, type Static } from '@sinclair/typebox';
import { LegendRecord } from '../transaction-types';
import { randomUUID } from 'node:crypto';
import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const legendCreatedPayload = Type.Object({ legend: LegendRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_LEGEND_TEMPLATE_CREATED: Static<typeof legendCreatedPayload>;
  }
}

/** A legend as a caller gives it (`POST .../legend`). */
export interface LegendInput {
  name: string;
  text: string;
  /** Default false. */
  isDefault?: boolean;
}

export const stockLegendTemplateCreated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_CREATED'> = {
  payload: legendCreatedPayload,
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: () => ({}),
  validate: noRules,
  command: {
    scope: () => ({}),
    prepare: (_state, input: LegendInput, context) => ({
      effectiveDate: context.today,
      payload: {
        legend: {
          id: randomUUID(),
          name: input.name,
          text: input.text,
          isDefault: input.isDefault ?? false,
        },
      },
    }),
  },
  event: {
    type: 'legend.created',
    public: false,
    audience: 'canViewCapTable',
    async describe(facts) {
      const view = (await facts.view('legends', facts.payload.legend.id)) as { name: string };
      return { object: view, description: `legend ${view.name}: created` };
    },
  },
  apply(state, { legend }) {
    state.put('legends', { ...legend, deleted: false });
  },
};
