import { formatDate, fromDayNumber, IsoDate, parseDate, shiftMonths, toDayNumber } from '../dates';
import { about } from '../errors';
import { DEFAULT_VESTING_DAY_OF_MONTH, VestingDayOfMonth, VestingSchedule } from './schedule';

/** The day of the month an OCF VestingDayOfMonth value asks for, before month-end clamping. */
export function dayOfMonthFor(value: VestingDayOfMonth, vestingStartDate: IsoDate): number {
  if (value === 'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH') {
    return parseDate(vestingStartDate, 'vestingStartDate').day;
  }
  return Number(value.slice(0, 2));
}

/**
 * The end date of each period: vestingStart + k periods for k = 1..totalPeriods. Month and
 * year periods land on the schedule's day of the month (the month's last day when shorter),
 * each computed from the start date so a 31st start does not drift to the 28th.
 */
export function periodEndDates(schedule: VestingSchedule, vestingStartDate: IsoDate): IsoDate[] {
  // Of a valid schedule: a date it cannot write (past 9999-12-31) comes from the start date.
  return about('vestingStartDate', () => endDates(schedule, vestingStartDate));
}

function endDates(schedule: VestingSchedule, vestingStartDate: IsoDate): IsoDate[] {
  const { totalPeriods, periodLength, periodType } = schedule;
  const dates: IsoDate[] = [];
  if (periodType === 'days') {
    const start = toDayNumber(vestingStartDate);
    for (let k = 1; k <= totalPeriods; k++) {
      dates.push(fromDayNumber(start + k * periodLength));
    }
    return dates;
  }
  const targetDay = dayOfMonthFor(
    schedule.vestingDayOfMonth ?? DEFAULT_VESTING_DAY_OF_MONTH,
    vestingStartDate,
  );
  const monthsPerPeriod = periodType === 'years' ? periodLength * 12 : periodLength;
  const start = parseDate(vestingStartDate);
  for (let k = 1; k <= totalPeriods; k++) {
    dates.push(formatDate(shiftMonths(start, k * monthsPerPeriod, targetDay)));
  }
  return dates;
}
