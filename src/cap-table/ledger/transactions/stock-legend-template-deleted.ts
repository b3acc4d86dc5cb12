import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { LedgerRuleError } from '../ledger-state';
import { legend, liveLegend } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const legendDeletedPayload = Type.Object({ legendId: Id() });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_LEGEND_TEMPLATE_DELETED: Static<typeof legendDeletedPayload>;
  }
}

/** A legend still on an active shareholding stays. */
export const stockLegendTemplateDeleted: TransactionDefinition<'STOCK_LEGEND_TEMPLATE_DELETED'> = {
  payload: legendDeletedPayload,
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ legendToDelete: p.legendId }),
  validate(state, { legendId }) {
    const l = liveLegend(state, legendId);
    const user = [...state.shareholdings.values()].find(
      (h) => h.status === 'active' && h.legendIds.includes(legendId),
    );
    if (user) {
      throw new LedgerRuleError(
        'conflict',
        `legend ${l.name} is on shareholding ${user.certificateNumber}`,
      );
    }
  },
  command: {
    scope: (input: { legendId: string }) => ({ legendToDelete: input.legendId }),
    prepare: (_state, { legendId }: { legendId: string }, context) => ({
      effectiveDate: context.today,
      payload: { legendId },
    }),
  },
  event: {
    type: 'legend.deleted',
    public: false,
    audience: 'canViewCapTable',
    before: (p) => [{ kind: 'legends', id: p.legendId }],
    // The legend as it was: it has no view once deleted.
    async describe(facts) {
      const view = facts.before('legends', facts.payload.legendId) as { name: string };
      return { object: view, description: `legend ${view.name}: deleted` };
    },
  },
  apply(state, { legendId }) {
    const l = legend(state, legendId);
    l.deleted = true;
    state.put('legends', l);
  },
};
