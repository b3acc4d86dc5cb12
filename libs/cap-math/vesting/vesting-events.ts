import Decimal from 'decimal.js';
import { D, DecimalInput } from '../decimal';
import { IsoDate, parseDate } from '../dates';
import { nonNegative } from '../validate';
import { allocateTranches } from './allocation';
import { validateSchedule, VestingSchedule } from './schedule';
import { periodEndDates } from './vesting-dates';

export interface VestingEvent {
  date: IsoDate;
  amount: Decimal;
  cumulative: Decimal;
}

/**
 * The dated vesting events of a grant. The allocation is computed over all `totalPeriods`
 * tranches first and the first `cliffPeriods` tranches are then paid together on the cliff
 * date, so a cliff never changes how many shares vest in total or per later month (4800
 * shares on 48 months with a 12-month cliff: 1200 at month 12, then 100 a month). Nothing
 * vests before the cliff; zero-amount events are left out; amounts add up to `quantity`.
 */
export function vestingEvents(
  schedule: VestingSchedule,
  quantity: DecimalInput,
  vestingStartDate: IsoDate,
): VestingEvent[] {
  validateSchedule(schedule);
  parseDate(vestingStartDate, 'vestingStartDate');
  const amounts = allocateTranches(
    nonNegative('quantity', quantity),
    schedule.totalPeriods,
    schedule.allocationType,
  );
  const dates = periodEndDates(schedule, vestingStartDate);

  const events: VestingEvent[] = [];
  let cumulative = new D(0);
  const push = (date: IsoDate, amount: Decimal) => {
    if (amount.isZero()) return;
    cumulative = cumulative.plus(amount);
    events.push({ date, amount, cumulative });
  };

  const cliff = schedule.cliffPeriods;
  if (cliff > 0) {
    let atCliff = new D(0);
    for (let i = 0; i < cliff; i++) atCliff = atCliff.plus(amounts[i]);
    push(dates[cliff - 1], atCliff);
  }
  for (let i = cliff; i < amounts.length; i++) {
    push(dates[i], amounts[i]);
  }
  return events;
}
