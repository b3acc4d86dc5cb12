import { documentedHolding } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { DateText, DecimalText, Id } from '../payload-fields';
import type Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { decimalOrNull } from '../command-values';
import { LedgerRuleError, LedgerState } from '../ledger-state';
import { repayableNote } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import { interestOwed } from '../incentives/holding-figures';
import { holdingLabel } from '../incentive-types';
import { positive } from '../rules';
import type { TransactionPayloads } from '../transaction-types';
import type { TransactionDefinition } from './definition';
import { convertibleRepaymentOcf } from './convertible-repayment.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const repaymentPayload = Type.Object({
  holdingId: Id(),
  amount: DecimalText(),
  date: DateText(),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_CONVERTIBLE_REPAYMENT: Static<typeof repaymentPayload>;
  }
}

type Repayment = TransactionPayloads['TX_CONVERTIBLE_REPAYMENT'];

/** The note, and the interest it owes on the date (settled to 10 places, as every stored amount). */
function owing(state: LedgerState, { holdingId, date }: Repayment, strict: boolean) {
  const h = holding(state, holdingId);
  if (h.type !== 'convertible_note' || !h.principalOutstanding) {
    throw new LedgerRuleError('invalid', `a ${h.type} is not repaid`);
  }
  return {
    h,
    principal: h.principalOutstanding,
    interest: interestOwed(h, date, strict).toDecimalPlaces(10),
  };
}

/** OCF TX_CONVERTIBLE_REPAYMENT (OCF has none: exported as a cancellation); interest is paid first. */
export const convertibleRepayment: TransactionDefinition<'TX_CONVERTIBLE_REPAYMENT'> = {
  payload: repaymentPayload,
  definesRecord: false,
  ocf: convertibleRepaymentOcf,
  scope: (p) => ({ holdings: [p.holdingId] }),
  command: {
    scope: (input: Repayment) => ({ holdings: [input.holdingId] }),
    prepare: (_state, input: Repayment) => ({
      effectiveDate: input.date,
      payload: {
        holdingId: input.holdingId,
        amount: decimalOrNull(input.amount)!,
        date: input.date,
      },
    }),
  },
  event: {
    type: 'holding.repaid',
    public: true,
    audience: 'canViewHolding',
    object: documentedHolding,
    before: (p) => [{ kind: 'holdings', id: p.holdingId }],
    async describe(facts) {
      const { holdingId, amount, date } = facts.payload;
      type NoteView = { member: string; currency: string; interestPaid: string; status: string };
      const before = facts.before('holdings', holdingId) as NoteView;
      const view = (await facts.view('holdings', holdingId)) as NoteView;
      // Interest is paid first: what it took of the amount, the rest reduced the principal.
      const toInterest = toDecimal(view.interestPaid).minus(before.interestPaid);
      const money = (d: Decimal) => toDecimalString(d.toDecimalPlaces(10));
      return {
        object: view,
        subjects: [view.member],
        description:
          `${holdingLabel('convertible_note')} ${holdingId}: ${amount} ${view.currency} repaid on ${date} ` +
          `(interest ${money(toInterest)}, principal ${money(toDecimal(amount).minus(toInterest))})` +
          (view.status === 'repaid' ? ': repaid in full' : ''),
      };
    },
  },
  validate(state, p) {
    repayableNote(state, p.holdingId);
    const { principal, interest } = owing(state, p, true);
    const paid = positive(p.amount, 'amount');
    const owed = principal.plus(interest);
    if (paid.gt(owed)) {
      throw new LedgerRuleError(
        'invalid',
        `amount ${toDecimalString(paid)} is more than the ${toDecimalString(owed)} owed on ${p.date}`,
      );
    }
  },
  apply(state, p, strict) {
    const { h, principal, interest } = owing(state, p, strict);
    const paid = positive(p.amount, 'amount');
    const toInterest = paid.lt(interest) ? paid : interest;
    h.interestPaid = h.interestPaid.plus(toInterest);
    h.accruedUnpaid = interest.minus(toInterest);
    h.principalOutstanding = principal.minus(paid.minus(toInterest));
    h.accruedThrough = p.date;
    if (h.principalOutstanding.isZero() && h.accruedUnpaid.isZero()) h.status = 'repaid';
    state.put('holdings', h);
  },
};
