import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { security } from '../rules';
import type { TransactionDefinition } from './definition';
import { authorizedSharesAdjustmentOcf } from './stock-class-authorized-shares-adjustment.ocf';

/** OCF TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: never below what is issued and reserved. */
export const stockClassAuthorizedSharesAdjustment: TransactionDefinition<'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT'> =
  {
    definesRecord: false,
    ocf: authorizedSharesAdjustmentOcf,
    scope: (p) => ({ securities: [p.securityId] }),
    validate(state, { securityId, newSharesAuthorized }) {
      const s = security(state, securityId);
      const floor = s.issued.plus(s.reserved);
      if (toDecimal(newSharesAuthorized).lt(floor)) {
        throw new LedgerRuleError(
          'insufficientShares',
          `class ${s.name} has ${toDecimalString(s.issued)} shares issued${s.reserved.isZero() ? '' : ` and ${toDecimalString(s.reserved)} reserved for plans`}: it cannot authorize fewer than ${toDecimalString(floor)}`,
        );
      }
    },
    apply(state, { securityId, newSharesAuthorized }) {
      const s = security(state, securityId);
      s.authorized = toDecimal(newSharesAuthorized);
      state.put('securities', s);
    },
  };
