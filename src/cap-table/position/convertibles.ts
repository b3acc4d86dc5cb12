import { capAndDiscount, type ConvertibleInstrument } from '../../../libs/cap-math';
import { fractionOf } from '../ledger/incentive-types';
import type { HoldingState } from '../ledger/ledger-state';

/**
 * A note or SAFE as libs/cap-math's `convertInFinancing` takes it: a note with its principal
 * outstanding, the interest since it was last settled (`accruedThrough`: the issue date, or the
 * last repayment) and what an earlier repayment left unpaid; a SAFE with its purchase amount.
 * The one mapping the dashboard's preview and a real conversion share.
 */
export function convertibleInstrument(h: HoldingState): ConvertibleInstrument {
  const t = h.terms;
  const terms = capAndDiscount({ valuationCap: t.valuationCap, discountPercent: t.discount });
  if (h.type === 'safe') {
    return {
      key: h.id,
      kind: t.safeType === 'pre_money' ? 'pre_money_safe' : 'post_money_safe',
      purchaseAmount: t.amount ?? '0',
      ...terms,
    };
  }
  return {
    key: h.id,
    kind: 'note',
    principal: h.principalOutstanding ?? '0',
    annualRate: fractionOf(t.interestRate) ?? '0',
    interestType: t.interestType ?? 'simple',
    dayCount: t.dayCount ?? 'actual/365',
    interestFrom: (h.accruedThrough ?? t.issueDate)!,
    unpaidInterest: h.accruedUnpaid,
    ...terms,
  };
}
