import * as capMath from './index';

describe('public API', () => {
  it('exports every entry point callers use', () => {
    const functions = [
      'toDecimal',
      'toDecimalString',
      'isWholeNumber',
      'sum',
      'addDays',
      'addMonths',
      'addYears',
      'compareDates',
      'daysBetween',
      'lastDayOfMonth',
      'ownershipPercentages',
      'fullyDiluted',
      'fullyDilutedByHolder',
      'allocateProRata',
      'applySplit',
      'splitHoldings',
      'vestingEvents',
      'vestedAsOf',
      'unvestedAsOf',
      'vestedOn',
      'totalPeriodsProblem',
      'accelerate',
      'effectiveAccelerationDate',
      'projectVesting',
      'validateSchedule',
      'accruedInterest',
      'convertPostMoneySafes',
      'convertPreMoneySafe',
      'convertNote',
      'convertInFinancing',
      'capAndDiscount',
      'priceRound',
    ];
    for (const name of functions) {
      expect(typeof (capMath as Record<string, unknown>)[name]).toBe('function');
    }
    expect(capMath.ALLOCATION_TYPES).toHaveLength(7);
    expect(capMath.VESTING_DAY_OF_MONTH_VALUES).toHaveLength(32);
    expect(new capMath.CapMathError('x', 'quantity')).toBeInstanceOf(Error);
  });

  it('works end to end through the index', () => {
    const { events } = capMath.projectVesting({
      schedule: {
        totalPeriods: 4,
        periodLength: 1,
        periodType: 'years',
        cliffPeriods: 1,
        allocationType: 'FRONT_LOADED',
      },
      quantity: '18',
      vestingStartDate: '2024-03-01',
    });
    expect(events.map((e) => `${e.date}:${e.amount}`)).toEqual([
      '2025-03-01:5',
      '2026-03-01:5',
      '2027-03-01:4',
      '2028-03-01:4',
    ]);
  });
});
