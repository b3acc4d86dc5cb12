import {
  addDays,
  addMonths,
  addYears,
  compareDates,
  daysBetween,
  daysInMonth,
  formatDate,
  fromDayNumber,
  isLeapYear,
  isValidDate,
  lastDayOfMonth,
  parseDate,
  shiftMonths,
  toDayNumber,
} from './dates';
import { CapMathError } from './errors';

describe('parseDate / formatDate', () => {
  it('round-trips valid dates', () => {
    expect(parseDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(formatDate({ year: 987, month: 3, day: 7 })).toBe('0987-03-07');
  });

  it.each([
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '0000-01-01',
    '2024-1-01',
    '2024/01/01',
    '2024-01-01T00:00:00Z',
    '',
  ])('rejects %j', (text) => {
    expect(() => parseDate(text)).toThrow(CapMathError);
    expect(isValidDate(text)).toBe(false);
  });

  it('accepts the leap day of a 400-year and rejects it in a 100-year', () => {
    expect(isValidDate('2000-02-29')).toBe(true);
    expect(isValidDate('1900-02-29')).toBe(false);
  });
});

describe('calendar helpers', () => {
  it('knows leap years and month lengths', () => {
    expect([isLeapYear(2024), isLeapYear(2023), isLeapYear(1900), isLeapYear(2000)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect([
      daysInMonth(2024, 2),
      daysInMonth(2023, 2),
      daysInMonth(2023, 4),
      daysInMonth(2023, 12),
    ]).toEqual([29, 28, 30, 31]);
  });

  it('lastDayOfMonth', () => {
    expect(lastDayOfMonth('2024-02-10')).toBe('2024-02-29');
    expect(lastDayOfMonth('2023-02-01')).toBe('2023-02-28');
    expect(lastDayOfMonth('2023-12-31')).toBe('2023-12-31');
    expect(lastDayOfMonth('2023-09-05')).toBe('2023-09-30');
  });

  it('day numbers count from 1970-01-01 and round-trip', () => {
    expect(toDayNumber('1970-01-01')).toBe(0);
    expect(toDayNumber('2000-03-01')).toBe(11017);
    expect(toDayNumber('1969-12-31')).toBe(-1);
    expect(fromDayNumber(19782)).toBe('2024-02-29');
    for (const date of ['0001-01-01', '1600-02-29', '2024-12-31', '9999-12-31']) {
      expect(fromDayNumber(toDayNumber(date))).toBe(date);
    }
  });
});

describe('addDays', () => {
  it('crosses month, year and leap-day boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2024-01-01', 366)).toBe('2025-01-01');
  });

  it('rejects fractional days and dates out of range', () => {
    expect(() => addDays('2024-01-01', 1.5)).toThrow(CapMathError);
    expect(() => addDays('9999-12-31', 1)).toThrow(CapMathError);
  });
});

describe('addMonths', () => {
  it('clamps to the last day of shorter months', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonths('2024-01-31', 3)).toBe('2024-04-30');
    expect(addMonths('2024-01-31', 2)).toBe('2024-03-31');
  });

  it('moves backwards and across years', () => {
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2024-01-15', -1)).toBe('2023-12-15');
    expect(addMonths('2023-11-30', 14)).toBe('2025-01-30');
  });

  it('lands on the requested day of month, or the last day when shorter', () => {
    expect(addMonths('2024-01-15', 1, 1)).toBe('2024-02-01');
    expect(addMonths('2024-01-15', 1, 30)).toBe('2024-02-29');
    expect(addMonths('2024-01-15', 2, 31)).toBe('2024-03-31');
    expect(addMonths('2024-01-15', 3, 31)).toBe('2024-04-30');
  });

  it('rejects bad offsets and days', () => {
    expect(() => addMonths('2024-01-15', 0.5)).toThrow(CapMathError);
    expect(() => addMonths('2024-01-15', 1, 0)).toThrow(CapMathError);
    expect(() => addMonths('2024-01-15', 1, 32)).toThrow(CapMathError);
    expect(() => addMonths('9999-12-01', 1)).toThrow(CapMathError);
  });
});

describe('addYears', () => {
  it('turns a leap day into 28 February in common years', () => {
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
    expect(addYears('2024-06-15', -2)).toBe('2022-06-15');
  });
});

describe('compareDates / daysBetween', () => {
  it('orders dates', () => {
    expect(compareDates('2024-01-01', '2024-01-02')).toBe(-1);
    expect(compareDates('2024-01-02', '2024-01-02')).toBe(0);
    expect(compareDates('2025-01-01', '2024-12-31')).toBe(1);
    expect(() => compareDates('2024-02-30', '2024-01-01')).toThrow(CapMathError);
  });

  it('counts signed days', () => {
    expect(daysBetween('2023-01-01', '2024-01-01')).toBe(365);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2024-03-01', '2024-02-28')).toBe(-2);
  });
});

describe('shiftMonths', () => {
  it('works on parsed dates like addMonths', () => {
    expect(shiftMonths({ year: 2024, month: 1, day: 31 }, 1)).toEqual({
      year: 2024,
      month: 2,
      day: 29,
    });
    expect(shiftMonths({ year: 2024, month: 1, day: 10 }, 13, 31)).toEqual({
      year: 2025,
      month: 2,
      day: 28,
    });
    expect(() => shiftMonths({ year: 1, month: 1, day: 1 }, -1)).toThrow(CapMathError);
  });
});
