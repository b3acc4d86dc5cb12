import { CapMathError } from '../errors';
import { VestingSchedule } from './schedule';
import { dayOfMonthFor, periodEndDates } from './vesting-dates';

const monthly = (totalPeriods: number, extra: Partial<VestingSchedule> = {}): VestingSchedule => ({
  totalPeriods,
  periodLength: 1,
  periodType: 'months',
  cliffPeriods: 0,
  allocationType: 'CUMULATIVE_ROUNDING',
  ...extra,
});

describe('dayOfMonthFor', () => {
  it('maps OCF values to a day number', () => {
    expect(dayOfMonthFor('01', '2024-05-20')).toBe(1);
    expect(dayOfMonthFor('28', '2024-05-20')).toBe(28);
    expect(dayOfMonthFor('30_OR_LAST_DAY_OF_MONTH', '2024-05-20')).toBe(30);
    expect(dayOfMonthFor('VESTING_START_DAY_OR_LAST_DAY_OF_MONTH', '2024-05-20')).toBe(20);
  });
});

describe('periodEndDates', () => {
  it('keeps the start day, clamped to short months, without drifting', () => {
    expect(periodEndDates(monthly(4), '2024-01-31')).toEqual([
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
      '2024-05-31',
    ]);
  });

  it('lands on a fixed day of the month', () => {
    expect(periodEndDates(monthly(3, { vestingDayOfMonth: '01' }), '2024-01-15')).toEqual([
      '2024-02-01',
      '2024-03-01',
      '2024-04-01',
    ]);
    expect(
      periodEndDates(monthly(3, { vestingDayOfMonth: '31_OR_LAST_DAY_OF_MONTH' }), '2024-01-10'),
    ).toEqual(['2024-02-29', '2024-03-31', '2024-04-30']);
  });

  it('handles quarterly, yearly and daily periods', () => {
    expect(periodEndDates(monthly(3, { periodLength: 3 }), '2023-11-30')).toEqual([
      '2024-02-29',
      '2024-05-30',
      '2024-08-30',
    ]);
    expect(periodEndDates(monthly(4, { periodType: 'years' }), '2024-02-29')).toEqual([
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
    expect(
      periodEndDates(monthly(3, { periodType: 'days', periodLength: 30 }), '2024-01-01'),
    ).toEqual(['2024-01-31', '2024-03-01', '2024-03-31']);
  });

  it('rejects a bad start date', () => {
    expect(() => periodEndDates(monthly(3), '2024-02-30')).toThrow(CapMathError);
  });
});
