import { DecimalInput } from '../decimal';
import { CapMathError } from '../errors';
import { inRange, integerAtLeast } from '../validate';

/** Open Cap Format `AllocationType`: how a quantity that does not divide evenly is spread. */
export const ALLOCATION_TYPES = [
  'CUMULATIVE_ROUNDING',
  'CUMULATIVE_ROUND_DOWN',
  'FRONT_LOADED',
  'BACK_LOADED',
  'FRONT_LOADED_TO_SINGLE_TRANCHE',
  'BACK_LOADED_TO_SINGLE_TRANCHE',
  'FRACTIONAL',
] as const;
export type AllocationType = (typeof ALLOCATION_TYPES)[number];

/**
 * Open Cap Format `VestingDayOfMonth`: the day vesting lands on in month/year schedules.
 * Days 29-31 and the start day fall back to the month's last day in shorter months.
 */
export const VESTING_DAY_OF_MONTH_VALUES = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29_OR_LAST_DAY_OF_MONTH',
  '30_OR_LAST_DAY_OF_MONTH',
  '31_OR_LAST_DAY_OF_MONTH',
  'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH',
] as const;
export type VestingDayOfMonth = (typeof VESTING_DAY_OF_MONTH_VALUES)[number];

export const DEFAULT_VESTING_DAY_OF_MONTH: VestingDayOfMonth =
  'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH';

export const PERIOD_TYPES = ['days', 'months', 'years'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

/**
 * The most periods a schedule an API caller or an import file gives may have: 50 years of
 * monthly or yearly vesting, 10 years of daily vesting. A schedule's events are listed and
 * projected per request, so their number is bounded by what a real grant needs.
 * `validateSchedule` does not apply it: schedules stored before the bound still compute.
 */
export const MAX_TOTAL_PERIODS: Readonly<Record<PeriodType, number>> = Object.freeze({
  days: 3650,
  months: 600,
  years: 50,
});

/** Why a schedule has more periods than `MAX_TOTAL_PERIODS` allows, or null. */
export function totalPeriodsProblem(
  schedule: Pick<VestingSchedule, 'totalPeriods' | 'periodType'>,
): string | null {
  if (!(PERIOD_TYPES as readonly string[]).includes(schedule.periodType)) return null;
  const max = MAX_TOTAL_PERIODS[schedule.periodType];
  if (!(schedule.totalPeriods > max)) return null;
  return `totalPeriods must be at most ${max} for ${schedule.periodType} periods (got ${schedule.totalPeriods})`;
}

export type AccelerationTrigger = 'single' | 'double';

export interface AccelerationTerms {
  trigger: AccelerationTrigger;
  /** Percent (0..100) of the then-unvested quantity that vests on the trigger. */
  percent: DecimalInput;
}

/**
 * A time-based schedule in the shape of OCF VestingTerms: `totalPeriods` equal tranches of
 * `periodLength` days/months/years, the first `cliffPeriods` of them paid out together at
 * the cliff. The standard grant is 48 × 1 month with a 12-period cliff.
 */
export interface VestingSchedule {
  totalPeriods: number;
  periodLength: number;
  periodType: PeriodType;
  cliffPeriods: number;
  allocationType: AllocationType;
  vestingDayOfMonth?: VestingDayOfMonth;
  acceleration?: AccelerationTerms;
}

const DAY_OF_MONTH_SET: ReadonlySet<string> = new Set(VESTING_DAY_OF_MONTH_VALUES);

/** Throws CapMathError describing the first thing wrong with the schedule. */
export function validateSchedule(schedule: VestingSchedule): void {
  integerAtLeast('totalPeriods', schedule.totalPeriods, 1);
  integerAtLeast('periodLength', schedule.periodLength, 1);
  integerAtLeast('cliffPeriods', schedule.cliffPeriods, 0);
  if (schedule.cliffPeriods > schedule.totalPeriods) {
    throw new CapMathError(
      `cliffPeriods (${schedule.cliffPeriods}) cannot exceed totalPeriods (${schedule.totalPeriods})`,
      'cliffPeriods',
    );
  }
  if (!(PERIOD_TYPES as readonly string[]).includes(schedule.periodType)) {
    throw new CapMathError(`periodType must be one of ${PERIOD_TYPES.join(', ')}`, 'periodType');
  }
  if (!(ALLOCATION_TYPES as readonly string[]).includes(schedule.allocationType)) {
    throw new CapMathError(
      `Unknown allocationType "${String(schedule.allocationType)}"`,
      'allocationType',
    );
  }
  const dayOfMonth = schedule.vestingDayOfMonth;
  if (dayOfMonth !== undefined) {
    if (!DAY_OF_MONTH_SET.has(dayOfMonth)) {
      throw new CapMathError(
        `Unknown vestingDayOfMonth "${String(dayOfMonth)}"`,
        'vestingDayOfMonth',
      );
    }
    // A fixed day of the month means nothing for daily periods; only the default is tolerated.
    if (schedule.periodType === 'days' && dayOfMonth !== DEFAULT_VESTING_DAY_OF_MONTH) {
      throw new CapMathError(
        'vestingDayOfMonth applies only to month and year periods',
        'vestingDayOfMonth',
      );
    }
  }
  if (schedule.acceleration) {
    const { trigger, percent } = schedule.acceleration;
    if (trigger !== 'single' && trigger !== 'double') {
      throw new CapMathError(
        `acceleration.trigger must be "single" or "double"`,
        'acceleration.trigger',
      );
    }
    inRange('acceleration.percent', percent, 0, 100);
  }
}

/** The usual grant: four years, monthly, one-year cliff (25% at month 12, 1/48 a month after). */
export const STANDARD_VESTING_SCHEDULE: VestingSchedule = Object.freeze({
  totalPeriods: 48,
  periodLength: 1,
  periodType: 'months',
  cliffPeriods: 12,
  allocationType: 'CUMULATIVE_ROUNDING',
});
