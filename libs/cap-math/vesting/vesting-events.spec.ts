import { CapMathError } from '../errors';
import { STANDARD_VESTING_SCHEDULE, VestingSchedule } from './schedule';
import { vestingEvents } from './vesting-events';

const standard = STANDARD_VESTING_SCHEDULE;

const rows = (events: ReturnType<typeof vestingEvents>) =>
  events.map((e) => [e.date, e.amount.toFixed(), e.cumulative.toFixed()]);

describe('vestingEvents', () => {
  it('vests the standard 4-year grant with a 1-year cliff: 25% at the cliff, then 1/48 monthly', () => {
    const events = rows(vestingEvents(standard, '4800', '2024-01-15'));
    expect(events).toHaveLength(37);
    expect(events[0]).toEqual(['2025-01-15', '1200', '1200']);
    expect(events[1]).toEqual(['2025-02-15', '100', '1300']);
    expect(events.slice(1).every(([, amount]) => amount === '100')).toBe(true);
    expect(events[36]).toEqual(['2028-01-15', '100', '4800']);
  });

  it('allocates over all 48 periods before merging the cliff', () => {
    // Cumulative 1000·k/48 rounded half up: 250 at k=12, then 271, 292, 313, 333...
    const events = rows(vestingEvents(standard, '1000', '2024-01-31'));
    expect(events.slice(0, 5)).toEqual([
      ['2025-01-31', '250', '250'],
      ['2025-02-28', '21', '271'],
      ['2025-03-31', '21', '292'],
      ['2025-04-30', '21', '313'],
      ['2025-05-31', '20', '333'],
    ]);
    expect(events[events.length - 1]).toEqual(['2028-01-31', '21', '1000']);
  });

  it('starts at the first period without a cliff and omits empty tranches', () => {
    const schedule: VestingSchedule = {
      ...standard,
      totalPeriods: 4,
      cliffPeriods: 0,
      allocationType: 'BACK_LOADED',
    };
    expect(rows(vestingEvents(schedule, '3', '2024-01-01'))).toEqual([
      ['2024-03-01', '1', '1'],
      ['2024-04-01', '1', '2'],
      ['2024-05-01', '1', '3'],
    ]);
  });

  it('pays everything at once when the cliff is the whole schedule', () => {
    expect(rows(vestingEvents({ ...standard, cliffPeriods: 48 }, '4800', '2024-01-15'))).toEqual([
      ['2028-01-15', '4800', '4800'],
    ]);
  });

  it('supports fractional grants', () => {
    const schedule: VestingSchedule = {
      totalPeriods: 4,
      periodLength: 1,
      periodType: 'years',
      cliffPeriods: 1,
      allocationType: 'FRACTIONAL',
    };
    expect(rows(vestingEvents(schedule, '10', '2024-02-29'))).toEqual([
      ['2025-02-28', '2.5', '2.5'],
      ['2026-02-28', '2.5', '5'],
      ['2027-02-28', '2.5', '7.5'],
      ['2028-02-29', '2.5', '10'],
    ]);
  });

  it('returns no events for a zero grant', () => {
    expect(vestingEvents(standard, '0', '2024-01-15')).toEqual([]);
  });

  it('rejects impossible input', () => {
    expect(() => vestingEvents(standard, '-1', '2024-01-15')).toThrow(CapMathError);
    expect(() => vestingEvents(standard, '10.5', '2024-01-15')).toThrow(CapMathError);
    expect(() => vestingEvents(standard, '10', '2024-13-01')).toThrow(CapMathError);
    expect(() => vestingEvents({ ...standard, totalPeriods: 0 }, '10', '2024-01-01')).toThrow(
      CapMathError,
    );
  });
});
