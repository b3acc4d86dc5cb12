import { CapMathError } from '../../../libs/cap-math';
import { DomainError } from '../../common';

/** The fields cap-math's messages name (`cliffPeriods (13) cannot exceed totalPeriods (12)`). */
const FIELDS = [
  'totalPeriods',
  'periodLength',
  'periodType',
  'cliffPeriods',
  'allocationType',
  'vestingDayOfMonth',
  'acceleration.trigger',
  'acceleration.percent',
  'quantity',
];

/**
 * Runs cap-math and turns its CapMathError (impossible input) into a 400 whose body names the
 * field: the one the message names first (prefixed with `prefix`, e.g. `schedule.` for an inline
 * schedule), else `fallback` (a date out of range comes from the start date).
 */
export function withScheduleErrors<T>(work: () => T, prefix = '', fallback?: string): T {
  try {
    return work();
  } catch (err) {
    if (!(err instanceof CapMathError)) throw err;
    const named = FIELDS.map((f) => ({ f, at: err.message.indexOf(f) }))
      .filter((x) => x.at >= 0)
      .sort((a, b) => a.at - b.at)[0]?.f;
    const field = named ? (named === 'quantity' ? named : `${prefix}${named}`) : fallback;
    throw DomainError.badRequest(err.message, field ? { body: { field } } : undefined);
  }
}
