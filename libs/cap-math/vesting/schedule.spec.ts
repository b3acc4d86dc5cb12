import { CapMathError } from '../errors';
import {
  ALLOCATION_TYPES,
  MAX_TOTAL_PERIODS,
  STANDARD_VESTING_SCHEDULE,
  totalPeriodsProblem,
  VESTING_DAY_OF_MONTH_VALUES,
  validateSchedule,
  VestingDayOfMonth,
  VestingSchedule,
} from './schedule';

const standard = STANDARD_VESTING_SCHEDULE;

describe('OCF enumerations', () => {
  it('lists the seven allocation types', () => {
    expect(ALLOCATION_TYPES).toEqual([
      'CUMULATIVE_ROUNDING',
      'CUMULATIVE_ROUND_DOWN',
      'FRONT_LOADED',
      'BACK_LOADED',
      'FRONT_LOADED_TO_SINGLE_TRANCHE',
      'BACK_LOADED_TO_SINGLE_TRANCHE',
      'FRACTIONAL',
    ]);
  });

  it('lists the 32 vesting day-of-month values', () => {
    expect(VESTING_DAY_OF_MONTH_VALUES).toHaveLength(32);
    expect(VESTING_DAY_OF_MONTH_VALUES.slice(0, 3)).toEqual(['01', '02', '03']);
    expect(VESTING_DAY_OF_MONTH_VALUES[27]).toBe('28');
    expect(VESTING_DAY_OF_MONTH_VALUES.slice(28)).toEqual([
      '29_OR_LAST_DAY_OF_MONTH',
      '30_OR_LAST_DAY_OF_MONTH',
      '31_OR_LAST_DAY_OF_MONTH',
      'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH',
    ]);
  });
});

describe('validateSchedule', () => {
  it('accepts the standard schedule and its variants', () => {
    expect(() => validateSchedule(standard)).not.toThrow();
    expect(() =>
      validateSchedule({
        ...standard,
        cliffPeriods: 48,
        vestingDayOfMonth: '31_OR_LAST_DAY_OF_MONTH',
      }),
    ).not.toThrow();
    expect(() =>
      validateSchedule({ ...standard, acceleration: { trigger: 'double', percent: '100' } }),
    ).not.toThrow();
  });

  it.each<[string, Partial<VestingSchedule>, string]>([
    ['zero periods', { totalPeriods: 0 }, 'totalPeriods must be a whole number of at least 1'],
    ['fractional periods', { totalPeriods: 4.5 }, 'totalPeriods'],
    ['zero period length', { periodLength: 0 }, 'periodLength'],
    ['a negative cliff', { cliffPeriods: -1 }, 'cliffPeriods'],
    [
      'a cliff past the end',
      { cliffPeriods: 49 },
      'cliffPeriods (49) cannot exceed totalPeriods (48)',
    ],
    ['an unknown period type', { periodType: 'weeks' as 'days' }, 'periodType'],
    ['an unknown allocation', { allocationType: 'EVEN' as 'FRACTIONAL' }, 'allocationType'],
    [
      'an unknown day of month',
      { vestingDayOfMonth: '29' as VestingDayOfMonth },
      'vestingDayOfMonth',
    ],
    [
      'a fixed day of month with daily periods',
      { periodType: 'days', vestingDayOfMonth: '15' },
      'vestingDayOfMonth applies only to month and year periods',
    ],
    [
      'acceleration over 100%',
      { acceleration: { trigger: 'single', percent: '101' } },
      'acceleration.percent',
    ],
    [
      'an unknown trigger',
      { acceleration: { trigger: 'triple' as 'single', percent: '50' } },
      'acceleration.trigger',
    ],
  ])('rejects %s', (_label, change, message) => {
    expect(() => validateSchedule({ ...standard, ...change })).toThrow(CapMathError);
    expect(() => validateSchedule({ ...standard, ...change })).toThrow(message);
  });

  it('tolerates the default day of month with daily periods', () => {
    expect(() =>
      validateSchedule({
        ...standard,
        periodType: 'days',
        vestingDayOfMonth: 'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH',
      }),
    ).not.toThrow();
  });
});

describe('totalPeriodsProblem', () => {
  it('bounds the periods by type: 50 years of months or years, 10 years of days', () => {
    expect(MAX_TOTAL_PERIODS).toEqual({ days: 3650, months: 600, years: 50 });
    for (const [periodType, max] of Object.entries(MAX_TOTAL_PERIODS)) {
      const type = periodType as VestingSchedule['periodType'];
      expect(totalPeriodsProblem({ periodType: type, totalPeriods: max })).toBeNull();
      expect(totalPeriodsProblem({ periodType: type, totalPeriods: 1 })).toBeNull();
      expect(totalPeriodsProblem({ periodType: type, totalPeriods: max + 1 })).toBe(
        `totalPeriods must be at most ${max} for ${type} periods (got ${max + 1})`,
      );
    }
    expect(totalPeriodsProblem({ periodType: 'months', totalPeriods: 10_000 })).toContain(
      'at most 600',
    );
  });

  it('leaves other mistakes to validateSchedule', () => {
    expect(totalPeriodsProblem({ periodType: 'weeks' as 'days', totalPeriods: 1e6 })).toBeNull();
    expect(
      totalPeriodsProblem({ periodType: 'constructor' as 'days', totalPeriods: 1e6 }),
    ).toBeNull();
    expect(totalPeriodsProblem({ periodType: 'days', totalPeriods: 0 })).toBeNull();
  });
});
