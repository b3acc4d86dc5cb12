import { toDecimalString } from '../../../../libs/cap-math';
import { commandQuantity } from '../command-values';
import type { LedgerCommand, Step } from '../command';
import { liveSecurity } from '../rules';
import type { SecurityChanges } from '../transaction-types';
import { describeSecurityUpdate, SECURITY_UPDATED } from '../transactions/security-updated-event';
import { securityFields, type SecurityInput } from '../transactions/stock-class-created';

export interface ReplaceSecurityInput extends SecurityInput {
  securityId: string;
}

/**
 * `PUT .../security/:security`: the class's fields (STOCK_CLASS_UPDATED, those that differ) and
 * its authorized shares (an adjustment, when they differ), one unit and one `security.updated`;
 * nothing at all when nothing differs.
 */
export const replaceSecurity: LedgerCommand<ReplaceSecurityInput> = {
  name: 'replaceSecurity',
  scope: (input) => ({ securities: [input.securityId] }),
  prepare(state, input, context) {
    const wanted = securityFields(input, context);
    const authorized = commandQuantity(input.authorizedShares, 'authorizedShares', context);
    const current = liveSecurity(state, input.securityId);
    const changes = Object.fromEntries(
      Object.entries(wanted).filter(
        ([k, v]) => JSON.stringify(current[k as keyof typeof wanted]) !== JSON.stringify(v),
      ),
    ) as SecurityChanges;
    const steps: Step[] = [];
    if (Object.keys(changes).length) {
      steps.push({
        type: 'STOCK_CLASS_UPDATED',
        effectiveDate: context.today,
        payload: { securityId: current.id, changes },
      });
    }
    const previous = toDecimalString(current.authorized);
    if (previous !== authorized) {
      steps.push({
        type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
        effectiveDate: context.today,
        payload: {
          securityId: current.id,
          previousSharesAuthorized: previous,
          newSharesAuthorized: authorized,
          reason: null,
        },
      });
    }
    return steps;
  },
  event: {
    ...SECURITY_UPDATED,
    before: (input) => [{ kind: 'securities', id: input.securityId }],
    async describe(run, input) {
      const id = input.securityId;
      return describeSecurityUpdate(
        run.before('securities', id)!,
        await run.view('securities', id),
      );
    },
  },
};
