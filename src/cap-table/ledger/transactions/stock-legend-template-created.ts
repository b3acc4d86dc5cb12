import { randomUUID } from 'node:crypto';
import { type TransactionDefinition, noRules } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** A legend as a caller gives it (`POST .../legend`). */
export interface LegendInput {
  name: string;
  text: string;
  /** Default false. */
  isDefault?: boolean;
}

export const stockLegendTemplateCreated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_CREATED'> = {
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
