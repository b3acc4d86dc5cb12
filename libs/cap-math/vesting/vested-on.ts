import Decimal from 'decimal.js';
import {
  CalendarDate,
  daysInMonth,
  fromDayNumber,
  IsoDate,
  parseDate,
  shiftMonths,
  toDayNumber,
} from '../dates';
import { D, floorToWhole } from '../decimal';
import { about, CapMathError } from '../errors';
import { inRange, nonNegative } from '../validate';
import { effectiveAccelerationDate } from './acceleration';
import { FRACTIONAL_DECIMALS } from './allocation';
import type { VestingProjectionInput } from './project';
import { DEFAULT_VESTING_DAY_OF_MONTH, validateSchedule, VestingSchedule } from './schedule';
import { dayOfMonthFor } from './vesting-dates';

// The last day `formatDate` can write; a period ending later is out of range.
const LAST_DAY = toDayNumber('9999-12-31');
const LAST_MONTH_INDEX = 9999 * 12 + 11;

/**
 * The quantity vested at the end of `date`: what `vestedAsOf` sums over the events
 * `projectVesting` builds (acceleration included), computed from the schedule in constant time
 * instead of from its `totalPeriods` events. Same decimals, same errors (the property test holds
 * it to the expansion). A grant list asks this twice per grant.
 */
export function vestedOn(input: VestingProjectionInput, date: IsoDate): Decimal {
  const { schedule } = input;
  const grant = vestingGrant(schedule, input.quantity, input.vestingStartDate);
  parseDate(date);
  const vested = grant.vestedOn(date);
  if (!schedule.acceleration) return vested;
  const triggerDate = effectiveAccelerationDate({
    trigger: schedule.acceleration.trigger,
    changeOfControlDate: input.changeOfControlDate,
    terminationDate: input.terminationDate,
  });
  if (!triggerDate) return vested;
  parseDate(triggerDate, 'triggerDate');
  const percent = inRange('percent', schedule.acceleration.percent, 0, 100);
  if (date < triggerDate) return vested;

  // `accelerate`, summed: what vested by the trigger, `percent` of the rest on the trigger date,
  // and the later tranches scaled down to what is left (the last one exactly).
  const roundDown =
    schedule.allocationType === 'FRACTIONAL'
      ? (x: Decimal) => x.toDecimalPlaces(FRACTIONAL_DECIMALS, Decimal.ROUND_DOWN)
      : floorToWhole;
  const atTrigger = grant.vestedOn(triggerDate);
  const unvested = grant.quantity.minus(atTrigger);
  const accelerated = roundDown(unvested.times(percent).div(100));
  if (accelerated.isZero()) return vested;
  const rest = unvested.minus(accelerated);
  const later = vested.minus(atTrigger);
  const scaled = later.equals(unvested) ? rest : roundDown(later.times(rest).div(unvested));
  return atTrigger.plus(accelerated).plus(scaled);
}

interface VestingGrant {
  quantity: Decimal;
  /** At the end of a valid date. */
  vestedOn(date: IsoDate): Decimal;
}

/** Checks what `vestingEvents` checks, in its order, and answers vested quantities by date. */
function vestingGrant(
  schedule: VestingSchedule,
  quantityInput: VestingProjectionInput['quantity'],
  vestingStartDate: IsoDate,
): VestingGrant {
  validateSchedule(schedule);
  const start = parseDate(vestingStartDate, 'vestingStartDate');
  const quantity = nonNegative('quantity', quantityInput);
  const cumulative = cumulativeTranches(quantity, schedule);
  const periodsBy = periodCounter(schedule, vestingStartDate, start);
  const { cliffPeriods } = schedule;
  return {
    quantity,
    vestedOn(date) {
      const periods = periodsBy(date);
      return periods < cliffPeriods || periods === 0 ? new D(0) : cumulative(periods);
    },
  };
}

/**
 * The sum of the first k tranches `allocateTranches` gives, without building them: the
 * cumulative types round q·k/n, the loaded types add the remainder's shares that fall in the
 * first k tranches to k equal ones.
 */
function cumulativeTranches(quantity: Decimal, schedule: VestingSchedule): (k: number) => Decimal {
  const { totalPeriods: tranches, allocationType } = schedule;
  if (allocationType === 'FRACTIONAL') {
    return (k) =>
      k === tranches
        ? quantity
        : quantity
            .times(k)
            .div(tranches)
            .toDecimalPlaces(FRACTIONAL_DECIMALS, Decimal.ROUND_HALF_UP);
  }
  if (!quantity.isInteger()) {
    throw new CapMathError(
      `${allocationType} allocates whole shares; quantity ${quantity.toFixed()} is not whole (use FRACTIONAL)`,
      'quantity',
    );
  }
  const q = BigInt(quantity.toFixed());
  const n = BigInt(tranches);
  const base = q / n;
  const r = q % n;
  const whole = (sum: (k: bigint) => bigint) => (k: number) => new D(sum(BigInt(k)).toString());
  switch (allocationType) {
    case 'CUMULATIVE_ROUNDING':
      return whole((k) => (2n * q * k + n) / (2n * n));
    case 'CUMULATIVE_ROUND_DOWN':
      return whole((k) => (q * k) / n);
    case 'FRONT_LOADED':
      return whole((k) => base * k + (k < r ? k : r));
    case 'BACK_LOADED':
      return whole((k) => base * k + (k > n - r ? k - (n - r) : 0n));
    case 'FRONT_LOADED_TO_SINGLE_TRANCHE':
      return whole((k) => base * k + (k > 0n ? r : 0n));
    case 'BACK_LOADED_TO_SINGLE_TRANCHE':
      return whole((k) => base * k + (k === n ? r : 0n));
    default:
      throw new CapMathError(
        `Unknown allocationType "${String(allocationType)}"`,
        'allocationType',
      );
  }
}

/**
 * How many of the schedule's periods have ended by a date (end dates as `periodEndDates` places
 * them). A schedule whose last period would end after 9999-12-31 throws the error
 * `periodEndDates` throws for the first such period.
 */
function periodCounter(
  schedule: VestingSchedule,
  vestingStartDate: IsoDate,
  start: CalendarDate,
): (date: IsoDate) => number {
  const { totalPeriods, periodLength, periodType } = schedule;
  if (periodType === 'days') {
    const first = toDayNumber(vestingStartDate);
    if (first + totalPeriods * periodLength > LAST_DAY) {
      const firstOutOfRange = Math.floor((LAST_DAY - first) / periodLength) + 1;
      about('vestingStartDate', () => fromDayNumber(first + firstOutOfRange * periodLength));
    }
    return (date) => {
      const days = toDayNumber(date) - first;
      return days < 0 ? 0 : Math.min(totalPeriods, Math.floor(days / periodLength));
    };
  }
  const months = periodType === 'years' ? periodLength * 12 : periodLength;
  const targetDay = dayOfMonthFor(
    schedule.vestingDayOfMonth ?? DEFAULT_VESTING_DAY_OF_MONTH,
    vestingStartDate,
  );
  const startIndex = monthIndex(start);
  if (startIndex + totalPeriods * months > LAST_MONTH_INDEX) {
    const firstOutOfRange = Math.floor((LAST_MONTH_INDEX - startIndex) / months) + 1;
    about('vestingStartDate', () => shiftMonths(start, firstOutOfRange * months, targetDay));
  }
  return (iso) => {
    const date = parseDate(iso);
    const elapsed = monthIndex(date) - startIndex;
    if (elapsed <= 0) return 0;
    let periods = Math.floor(elapsed / months);
    // In the month a period ends, it has ended once the (clamped) vesting day is reached.
    if (periods * months === elapsed) {
      const endDay = Math.min(targetDay, daysInMonth(date.year, date.month));
      if (date.day < endDay) periods--;
    }
    return Math.min(totalPeriods, periods);
  };
}

const monthIndex = (d: CalendarDate) => d.year * 12 + (d.month - 1);
