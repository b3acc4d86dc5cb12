import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { LegendChanges } from '../transaction-types';
import { previousAttributes } from '../../../events';
import { legend, liveLegend } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const legendUpdatedPayload = Type.Object({ legendId: Id(), changes: LegendChanges });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_LEGEND_TEMPLATE_UPDATED: Static<typeof legendUpdatedPayload>;
  }
}

/** A legend's fields as a caller changes them (`PATCH .../legend/:legend`): the given ones. */
export interface UpdateLegendInput extends LegendChanges {
  legendId: string;
}

export const stockLegendTemplateUpdated: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_UPDATED'> = {
  payload: legendUpdatedPayload,
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ legends: [p.legendId] }),
  validate(state, { legendId }) {
    liveLegend(state, legendId);
  },
  command: {
    scope: (input: UpdateLegendInput) => ({ legends: [input.legendId] }),
    prepare(state, { legendId, ...wanted }: UpdateLegendInput, context) {
      const current = liveLegend(state, legendId);
      const changes = Object.fromEntries(
        Object.entries(wanted).filter(
          ([k, v]) => v !== undefined && current[k as keyof LegendChanges] !== v,
        ),
      ) as LegendChanges;
      if (!Object.keys(changes).length) return null;
      return { effectiveDate: context.today, payload: { legendId, changes } };
    },
  },
  event: {
    type: 'legend.updated',
    public: false,
    audience: 'canViewCapTable',
    before: (p) => [{ kind: 'legends', id: p.legendId }],
    async describe(facts) {
      const id = facts.payload.legendId;
      const before = facts.before('legends', id) as { name: string };
      const after = await facts.view('legends', id);
      return {
        object: after,
        previous: previousAttributes(before, after),
        description: `legend ${before.name}: changed ${Object.keys(facts.payload.changes).join(', ')}`,
      };
    },
  },
  apply(state, { legendId, changes }) {
    state.put('legends', Object.assign(legend(state, legendId), changes));
  },
};
