import { Type, type Static } from '@sinclair/typebox';
import { DecimalText, Id, Nullable } from '../payload-fields';
import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { commandQuantity } from '../command-values';
import { LedgerRuleError } from '../ledger-state';
import { assertFits, liveSecurity, security } from '../rules';
import type { TransactionDefinition } from './definition';
import { describeSecurityUpdate, SECURITY_UPDATED } from './security-updated-event';
import { authorizedSharesAdjustmentOcf } from './stock-class-authorized-shares-adjustment.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const authorizedSharesAdjustmentPayload = Type.Object({
  securityId: Id(),
  previousSharesAuthorized: DecimalText(),
  newSharesAuthorized: DecimalText(),
  reason: Nullable(Type.String()),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: Static<typeof authorizedSharesAdjustmentPayload>;
  }
}

/** More authorized shares of a class, as a caller asks for them (`POST .../security/:security/shares`). */
export interface AddSharesInput {
  securityId: string;
  /** The shares added. */
  quantity: string;
  /** Default today. */
  date?: string;
  reason?: string | null;
}

/** OCF TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: never below what is issued and reserved. */
export const stockClassAuthorizedSharesAdjustment: TransactionDefinition<'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT'> =
  {
    payload: authorizedSharesAdjustmentPayload,
    definesRecord: false,
    ocf: authorizedSharesAdjustmentOcf,
    scope: (p) => ({ securities: [p.securityId] }),
    validate(state, { securityId, newSharesAuthorized }) {
      const s = liveSecurity(state, securityId);
      const authorized = toDecimal(newSharesAuthorized);
      assertFits(authorized, 'authorizedShares', 'authorizedShares');
      const floor = s.issued.plus(s.reserved);
      if (authorized.lt(floor)) {
        throw new LedgerRuleError(
          'insufficientShares',
          `class ${s.name} has ${toDecimalString(s.issued)} shares issued${s.reserved.isZero() ? '' : ` and ${toDecimalString(s.reserved)} reserved for plans`}: it cannot authorize fewer than ${toDecimalString(floor)}`,
        );
      }
    },
    command: {
      scope: (input: AddSharesInput) => ({ securities: [input.securityId] }),
      prepare(state, input: AddSharesInput, context) {
        const added = commandQuantity(input.quantity, 'quantity', context);
        const s = liveSecurity(state, input.securityId);
        const authorized = s.authorized.plus(added);
        // Named as the caller gave it: the quantity added, not the total.
        assertFits(authorized, 'quantity would take authorizedShares', 'quantity');
        return {
          effectiveDate: input.date ?? context.today,
          payload: {
            securityId: s.id,
            previousSharesAuthorized: toDecimalString(s.authorized),
            newSharesAuthorized: toDecimalString(authorized),
            reason: input.reason ?? null,
          },
        };
      },
    },
    event: {
      ...SECURITY_UPDATED,
      before: (p) => [{ kind: 'securities', id: p.securityId }],
      async describe(facts) {
        const id = facts.payload.securityId;
        return describeSecurityUpdate(
          facts.before('securities', id)!,
          await facts.view('securities', id),
        );
      },
    },
    apply(state, { securityId, newSharesAuthorized }) {
      const s = security(state, securityId);
      s.authorized = toDecimal(newSharesAuthorized);
      state.put('securities', s);
    },
  };
