import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { LedgerRuleError } from '../ledger-state';
import { liveSecurity, security } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockClassDeletedPayload = Type.Object({ securityId: Id() });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_CLASS_DELETED: Static<typeof stockClassDeletedPayload>;
  }
}

/** Only a class with no issued or reserved shares goes; its history stays in the log. */
export const stockClassDeleted: TransactionDefinition<'STOCK_CLASS_DELETED'> = {
  payload: stockClassDeletedPayload,
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ securities: [p.securityId] }),
  validate(state, { securityId }) {
    const s = liveSecurity(state, securityId);
    if (!s.issued.isZero())
      throw new LedgerRuleError('conflict', `class ${s.name} has issued shares`);
    if (!s.reserved.isZero()) {
      throw new LedgerRuleError('conflict', `class ${s.name} has shares reserved for a plan`);
    }
  },
  command: {
    scope: (input: { securityId: string }) => ({ securities: [input.securityId] }),
    prepare: (_state, { securityId }: { securityId: string }, context) => ({
      effectiveDate: context.today,
      payload: { securityId },
    }),
  },
  event: {
    type: 'security.deleted',
    public: true,
    audience: 'canViewOrganization',
    object: documentedView('SecurityView'),
    before: (p) => [{ kind: 'securities', id: p.securityId }],
    // The class as it was: it has no view once deleted.
    async describe(facts) {
      const view = facts.before('securities', facts.payload.securityId) as { name: string };
      return { object: view, description: `class ${view.name}: deleted` };
    },
  },
  apply(state, { securityId }) {
    const s = security(state, securityId);
    s.deleted = true;
    state.put('securities', s);
  },
};
