import { CapMathError } from './errors';

/**
 * Calendar dates as `YYYY-MM-DD` strings. All arithmetic is on year/month/day integers
 * (days counted with Howard Hinnant's civil-date algorithm), so no time zone, DST or
 * local-time `Date` behaviour can move a date.
 */
export type IsoDate = string;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    return isLeapYear(year) ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The date's year, month and day; an error is about `field` (the caller's name for the date). */
export function parseDate(date: IsoDate, field = 'date'): CalendarDate {
  const match = typeof date === 'string' ? ISO_DATE.exec(date) : null;
  if (!match) {
    throw new CapMathError(`Not a YYYY-MM-DD date: "${String(date)}"`, field);
  }
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new CapMathError(`No such calendar date: "${date}"`, field);
  }
  return { year, month, day };
}

export function formatDate({ year, month, day }: CalendarDate): IsoDate {
  if (!Number.isInteger(year) || year < 1 || year > 9999) {
    throw new CapMathError(`Date out of range (years 0001-9999): year ${year}`, 'date');
  }
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function isValidDate(date: string): boolean {
  try {
    parseDate(date);
    return true;
  } catch {
    return false;
  }
}

/** Last day of the month the date falls in, as a date. */
export function lastDayOfMonth(date: IsoDate): IsoDate {
  const { year, month } = parseDate(date);
  return formatDate({ year, month, day: daysInMonth(year, month) });
}

/** Days since 1970-01-01 (negative before). */
export function toDayNumber(date: IsoDate): number {
  const { year, month, day } = parseDate(date);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

export function fromDayNumber(dayNumber: number): IsoDate {
  if (!Number.isSafeInteger(dayNumber)) {
    throw new CapMathError(`Not a whole day number: ${dayNumber}`, 'dayNumber');
  }
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36524) -
      Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return formatDate({ year, month, day });
}

function requireInteger(name: string, n: number): void {
  if (!Number.isSafeInteger(n)) {
    throw new CapMathError(`${name} must be a whole number (got ${n})`, name);
  }
}

export function addDays(date: IsoDate, days: number): IsoDate {
  requireInteger('days', days);
  return fromDayNumber(toDayNumber(date) + days);
}

/**
 * Moves by whole calendar months and lands on `dayOfMonth` (default: the date's own day),
 * or on the month's last day when the month is shorter: 2024-01-31 + 1 month = 2024-02-29.
 * Always computed from the given date, so repeated offsets from one start date never drift.
 */
export function addMonths(date: IsoDate, months: number, dayOfMonth?: number): IsoDate {
  return formatDate(shiftMonths(parseDate(date), months, dayOfMonth));
}

/** `addMonths` on an already parsed date, for callers computing many dates from one start. */
export function shiftMonths(
  start: CalendarDate,
  months: number,
  dayOfMonth?: number,
): CalendarDate {
  requireInteger('months', months);
  const targetDay = dayOfMonth ?? start.day;
  if (!Number.isInteger(targetDay) || targetDay < 1 || targetDay > 31) {
    throw new CapMathError(`dayOfMonth must be between 1 and 31 (got ${dayOfMonth})`, 'dayOfMonth');
  }
  const monthIndex = start.year * 12 + (start.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  if (year < 1 || year > 9999) {
    throw new CapMathError(
      `Date out of range (years 0001-9999): ${months} months from ${formatDate(start)}`,
      'date',
    );
  }
  return { year, month, day: Math.min(targetDay, daysInMonth(year, month)) };
}

/** Whole years; 29 February becomes 28 February in a common year. */
export function addYears(date: IsoDate, years: number): IsoDate {
  requireInteger('years', years);
  return addMonths(date, years * 12);
}

/** -1, 0 or 1, like a sort comparator. */
export function compareDates(a: IsoDate, b: IsoDate): -1 | 0 | 1 {
  parseDate(a);
  parseDate(b);
  // Validated fixed-width ISO dates order the same as their text.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Signed number of days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toDayNumber(to) - toDayNumber(from);
}
