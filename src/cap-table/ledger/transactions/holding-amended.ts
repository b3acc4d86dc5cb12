import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { assertActiveHolding, assertSchedule } from '../incentives/holding-rules';
import { available } from '../incentives/plan-reservation';
import { holding, pool } from '../incentives/lookups';
import { positive } from '../rules';
import type { TransactionDefinition } from './definition';
import { holdingAmendedOcf } from './holding-amended.ocf';

/**
 * A correction of a grant, warrant or convertible: its terms or vesting. A grant's quantity
 * moves with its pool and never below what was exercised or cancelled; a note's principal is
 * fixed once it was repaid in part.
 */
export const holdingAmended: TransactionDefinition<'HOLDING_AMENDED'> = {
  definesRecord: false,
  ocf: holdingAmendedOcf,
  refers: { members: [['changes', 'memberId']], amends: ['holdingId'] },
  scope: (p) => ({
    holdings: [p.holdingId],
    schedules: p.changes.vestingScheduleId ? [p.changes.vestingScheduleId] : [],
  }),
  validate(state, { holdingId, changes }) {
    const h = holding(state, holdingId);
    assertActiveHolding(h);
    if (changes.vestingScheduleId !== undefined) assertSchedule(state, changes.vestingScheduleId);
    const terms = changes.terms ?? {};
    if (terms.quantity !== undefined && h.quantity) {
      const quantity = positive(terms.quantity, 'quantity');
      const used = h.exercised.plus(h.cancelled);
      if (quantity.lt(used)) {
        throw new LedgerRuleError(
          'insufficientShares',
          `${toDecimalString(used)} of it were exercised or cancelled: the quantity cannot be less`,
        );
      }
      if (h.poolId) {
        const po = pool(state, h.poolId);
        const delta = quantity.minus(h.quantity);
        if (delta.gt(available(po))) {
          throw new LedgerRuleError(
            'insufficientShares',
            `pool ${po.name} has ${toDecimalString(available(po))} shares available, less than ${toDecimalString(delta)} more`,
          );
        }
      }
    }
    if (terms.principal !== undefined && h.principalOutstanding) {
      if (h.interestPaid.gt(0) || !h.principalOutstanding.eq(h.terms.principal ?? 0)) {
        throw new LedgerRuleError('conflict', 'the principal of a note with repayments is fixed');
      }
      positive(terms.principal, 'principal');
    }
  },
  apply(state, { holdingId, changes }) {
    const h = holding(state, holdingId);
    if (changes.vestingScheduleId !== undefined) h.vestingScheduleId = changes.vestingScheduleId;
    const terms = changes.terms ?? {};
    if (terms.quantity !== undefined && h.quantity) {
      const quantity = positive(terms.quantity, 'quantity');
      if (h.poolId) {
        const po = pool(state, h.poolId);
        po.granted = po.granted.plus(quantity.minus(h.quantity));
        state.put('pools', po);
      }
      h.quantity = quantity;
    }
    if (terms.principal !== undefined && h.principalOutstanding) {
      h.principalOutstanding = positive(terms.principal, 'principal');
    }
    if (terms.issueDate !== undefined && h.type === 'convertible_note') {
      h.accruedThrough = terms.issueDate;
    }
    h.terms = { ...h.terms, ...terms };
    state.put('holdings', h);
  },
};
