/**
 * cap-math: the numbers of the product, with no Nest and no database. Quantities, prices
 * and money are Decimals (60 significant digits, half-up); dates are `YYYY-MM-DD` strings.
 */
export { CapMathError } from './errors';
export { decimalSortKeys, isWholeNumber, sum, toDecimal, toDecimalString } from './decimal';
export type { DecimalInput } from './decimal';
export {
  addDays,
  addMonths,
  addYears,
  compareDates,
  daysBetween,
  daysInMonth,
  isLeapYear,
  isValidDate,
  lastDayOfMonth,
  parseDate,
} from './dates';
export type { CalendarDate, IsoDate } from './dates';
export * from './ownership';
export * from './fully-diluted';
export * from './pro-rata';
export * from './splits';
export * from './day-count';
export * from './interest';
export * from './conversion';
export * from './vesting';
export * from './modeling';
