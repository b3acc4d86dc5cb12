import { CapMathError } from '../errors';
import { projectVesting } from './project';
import { STANDARD_VESTING_SCHEDULE } from './schedule';

const standard = STANDARD_VESTING_SCHEDULE;

describe('projectVesting', () => {
  it('returns decimal strings for the plain schedule', () => {
    const { events, accelerationDate } = projectVesting({
      schedule: standard,
      quantity: '4800',
      vestingStartDate: '2024-01-15',
    });
    expect(accelerationDate).toBeNull();
    expect(events).toHaveLength(37);
    expect(events[0]).toEqual({ date: '2025-01-15', amount: '1200', cumulative: '1200' });
    expect(events[36]).toEqual({ date: '2028-01-15', amount: '100', cumulative: '4800' });
  });

  it('applies single-trigger acceleration on the change of control', () => {
    const { events, accelerationDate } = projectVesting({
      schedule: { ...standard, acceleration: { trigger: 'single', percent: '100' } },
      quantity: '4800',
      vestingStartDate: '2024-01-15',
      changeOfControlDate: '2025-07-01',
    });
    expect(accelerationDate).toBe('2025-07-01');
    expect(events).toHaveLength(7);
    expect(events[5]).toEqual({ date: '2025-06-15', amount: '100', cumulative: '1700' });
    expect(events[6]).toEqual({ date: '2025-07-01', amount: '3100', cumulative: '4800' });
  });

  it('waits for the termination with a double trigger', () => {
    const schedule = { ...standard, acceleration: { trigger: 'double' as const, percent: '50' } };
    const onlyChange = projectVesting({
      schedule,
      quantity: '4800',
      vestingStartDate: '2024-01-15',
      changeOfControlDate: '2025-07-01',
    });
    expect(onlyChange.accelerationDate).toBeNull();
    expect(onlyChange.events).toHaveLength(37);

    const both = projectVesting({
      schedule,
      quantity: '4800',
      vestingStartDate: '2024-01-15',
      changeOfControlDate: '2025-07-01',
      terminationDate: '2025-08-20',
    });
    expect(both.accelerationDate).toBe('2025-08-20');
    // 1900 vested by 2025-08-15; half of the 2900 left (1450) vests on the termination date.
    expect(both.events.find((e) => e.date === '2025-08-20')).toEqual({
      date: '2025-08-20',
      amount: '1450',
      cumulative: '3350',
    });
    expect(both.events[both.events.length - 1].cumulative).toBe('4800');
  });

  it('prints fractional amounts without exponent notation', () => {
    const { events } = projectVesting({
      schedule: { ...standard, totalPeriods: 3, cliffPeriods: 0, allocationType: 'FRACTIONAL' },
      quantity: '0.0000001',
      vestingStartDate: '2024-01-15',
    });
    expect(events.map((e) => e.amount)).toEqual(['0.0000000333', '0.0000000334', '0.0000000333']);
    expect(events[events.length - 1].cumulative).toBe('0.0000001');
  });

  it('rejects an invalid schedule', () => {
    expect(() =>
      projectVesting({
        schedule: { ...standard, cliffPeriods: 60 },
        quantity: '1',
        vestingStartDate: '2024-01-01',
      }),
    ).toThrow(CapMathError);
  });
});
