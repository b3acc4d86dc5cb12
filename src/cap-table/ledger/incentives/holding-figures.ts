import type Decimal from 'decimal.js';
import {
  accruedInterest,
  CapMathError,
  compareDates,
  vestedOn,
  type VestingDayOfMonth,
  type VestingSchedule,
} from '../../../../libs/cap-math';
import { fractionOf } from '../incentive-types';
import { ZERO } from '../rules';
import { HoldingState, LedgerRuleError, LedgerState, VestingScheduleState } from '../ledger-state';
import { schedule } from './lookups';

/** Granted (or warranted) and neither exercised nor cancelled. */
export const outstanding = (h: HoldingState): Decimal =>
  h.quantity ? h.quantity.minus(h.exercised).minus(h.cancelled) : ZERO;

/** The quantity of a grant vested on `date` (all of it without a schedule). */
export function vestedQuantity(state: LedgerState, h: HoldingState, date: string): Decimal {
  if (!h.quantity) return ZERO;
  if (!h.vestingScheduleId) return h.quantity;
  const v = schedule(state, h.vestingScheduleId);
  const start = h.terms.vestingStartDate ?? h.terms.grantDate ?? date;
  try {
    // Closed form: a list of grants asks this twice per grant, whatever the schedule's length.
    return vestedOn(
      { schedule: toVestingSchedule(v), quantity: h.quantity, vestingStartDate: start },
      date,
    );
  } catch (err) {
    if (err instanceof CapMathError) throw new LedgerRuleError('invalid', err.message, err.field);
    throw err;
  }
}

/** What the holder may exercise on `date`: vested (or all, if early exercise is allowed), less what was exercised or cancelled. */
export function exercisable(state: LedgerState, h: HoldingState, date: string): Decimal {
  if (!h.quantity || h.status !== 'active') return ZERO;
  const vested = h.terms.earlyExercisable ? h.quantity : vestedQuantity(state, h, date);
  const left = vested.minus(h.exercised).minus(h.cancelled);
  return left.gt(0) ? left : ZERO;
}

export const toVestingSchedule = (v: VestingScheduleState): VestingSchedule => ({
  totalPeriods: v.totalPeriods,
  periodLength: v.periodLength,
  periodType: v.periodType,
  cliffPeriods: v.cliffPeriods,
  allocationType: v.allocationType,
  ...(v.vestingDayOfMonth ? { vestingDayOfMonth: v.vestingDayOfMonth as VestingDayOfMonth } : {}),
  ...(v.acceleration ? { acceleration: v.acceleration } : {}),
});

/** Interest a note owes on `date`: accrued and unpaid, plus accrued since on what is outstanding. */
export function interestOwed(h: HoldingState, date: string, strict = true): Decimal {
  if (!h.principalOutstanding || !h.accruedThrough) return ZERO;
  if (compareDates(date, h.accruedThrough) < 0) {
    if (strict) {
      throw new LedgerRuleError('invalid', `date must not be before ${h.accruedThrough}`);
    }
    return h.accruedUnpaid;
  }
  return h.accruedUnpaid.plus(
    accruedInterest({
      principal: h.principalOutstanding,
      annualRate: fractionOf(h.terms.interestRate) ?? '0',
      interestType: h.terms.interestType ?? 'simple',
      dayCount: h.terms.dayCount ?? 'actual/365',
      startDate: h.accruedThrough,
      endDate: date,
    }),
  );
}
