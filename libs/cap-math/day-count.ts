import Decimal from 'decimal.js';
import { D } from './decimal';
import { daysBetween, daysInMonth, IsoDate, parseDate } from './dates';
import { CapMathError } from './errors';

export const DAY_COUNT_CONVENTIONS = ['actual/365', '30/360'] as const;
export type DayCountConvention = (typeof DAY_COUNT_CONVENTIONS)[number];

/**
 * Days between two dates under US (NASD) 30/360, the rule of Excel's DAYS360 with the U.S.
 * method: a start on the last day of a month counts as the 30th; an end on the 31st counts
 * as the 30th when the (adjusted) start is the 30th, and otherwise as the 1st of the next
 * month, which is the same as leaving it at 31.
 */
export function days360Nasd(startDate: IsoDate, endDate: IsoDate): number {
  const start = parseDate(startDate, 'startDate');
  const end = parseDate(endDate, 'endDate');
  let startDay = start.day;
  if (startDay === daysInMonth(start.year, start.month)) {
    startDay = 30;
  }
  let endDay = end.day;
  if (endDay === 31 && startDay >= 30) {
    endDay = 30;
  }
  return 360 * (end.year - start.year) + 30 * (end.month - start.month) + (endDay - startDay);
}

/** The fraction of a year between two dates under the convention. */
export function yearFraction(
  startDate: IsoDate,
  endDate: IsoDate,
  dayCount: DayCountConvention,
): Decimal {
  switch (dayCount) {
    case 'actual/365':
      return new D(daysBetween(startDate, endDate)).div(365);
    case '30/360':
      return new D(days360Nasd(startDate, endDate)).div(360);
    default:
      throw new CapMathError(`Unknown day count convention "${String(dayCount)}"`, 'dayCount');
  }
}
