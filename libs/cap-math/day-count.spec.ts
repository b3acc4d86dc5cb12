import { days360Nasd, yearFraction } from './day-count';
import { CapMathError } from './errors';

describe('days360Nasd (US / NASD 30/360)', () => {
  it.each([
    // Examples documented for spreadsheet DAYS360 with the U.S. (NASD) method.
    ['2004-07-15', '2004-12-25', 160],
    ['2008-12-20', '2009-03-31', 101],
    ['2008-02-27', '2009-03-31', 394],
    ['2008-02-29', '2008-08-31', 180],
    // Hand-computed: start on the 31st → 30th, end on the 31st after a 30th → 30th.
    ['2024-01-31', '2024-07-31', 180],
    ['2024-01-30', '2024-03-31', 60],
    ['2023-02-28', '2023-03-31', 30],
    ['2024-02-28', '2024-03-31', 33],
    ['2024-01-01', '2025-01-01', 360],
    ['2024-05-10', '2024-05-10', 0],
  ])('%s → %s is %i days', (start, end, days) => {
    expect(days360Nasd(start, end)).toBe(days);
  });
});

describe('yearFraction', () => {
  it('actual/365 counts calendar days', () => {
    expect(yearFraction('2023-01-01', '2024-01-01', 'actual/365').toFixed()).toBe('1');
    expect(yearFraction('2024-01-01', '2025-01-01', 'actual/365').toFixed(10)).toBe('1.0027397260');
  });

  it('30/360 counts 30-day months', () => {
    expect(yearFraction('2024-01-31', '2024-07-31', '30/360').toFixed()).toBe('0.5');
  });

  it('rejects unknown conventions and bad dates', () => {
    expect(() => yearFraction('2024-01-01', '2024-02-01', 'actual/360' as '30/360')).toThrow(
      CapMathError,
    );
    expect(() => yearFraction('2024-01-01', '2024-02-30', '30/360')).toThrow(CapMathError);
  });
});
