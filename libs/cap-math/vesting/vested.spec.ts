import { CapMathError } from '../errors';
import { unvestedAsOf, vestedAsOf } from './vested';
import { vestingEvents } from './vesting-events';

const events = vestingEvents(
  {
    totalPeriods: 48,
    periodLength: 1,
    periodType: 'months',
    cliffPeriods: 12,
    allocationType: 'CUMULATIVE_ROUNDING',
  },
  '4800',
  '2024-01-15',
);

describe('vestedAsOf / unvestedAsOf', () => {
  it.each([
    ['2024-01-15', '0', '4800'],
    ['2025-01-14', '0', '4800'],
    ['2025-01-15', '1200', '3600'],
    ['2025-02-14', '1200', '3600'],
    ['2025-02-15', '1300', '3500'],
    ['2028-01-15', '4800', '0'],
    ['2030-01-01', '4800', '0'],
  ])('as of %s: %s vested, %s unvested', (date, vested, unvested) => {
    expect(vestedAsOf(events, date).toFixed()).toBe(vested);
    expect(unvestedAsOf(events, date).toFixed()).toBe(unvested);
  });

  it('rejects a bad date', () => {
    expect(() => vestedAsOf(events, '2025-02-30')).toThrow(CapMathError);
    expect(() => unvestedAsOf(events, 'soon')).toThrow(CapMathError);
  });
});
