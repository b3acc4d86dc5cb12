import { CapMathError, type VestingSchedule } from '../../../libs/cap-math';
import { DomainError } from '../../common';

/** A schedule's terms, as cap-math names them in an error's field (`acceleration.percent`...). */
const SCHEDULE_TERMS: Readonly<Record<keyof VestingSchedule, true>> = {
  totalPeriods: true,
  periodLength: true,
  periodType: true,
  cliffPeriods: true,
  allocationType: true,
  vestingDayOfMonth: true,
  acceleration: true,
};

const isScheduleTerm = (field: string) => Object.hasOwn(SCHEDULE_TERMS, field.split('.')[0]);

/**
 * Runs cap-math and turns its CapMathError (impossible input) into a 400 whose body names the
 * field: a schedule term prefixed with `prefix` (`schedule.` for an inline schedule), any other
 * (quantity, vestingStartDate...) as it is.
 */
export function withScheduleErrors<T>(work: () => T, prefix = ''): T {
  try {
    return work();
  } catch (err) {
    if (!(err instanceof CapMathError)) throw err;
    const field = isScheduleTerm(err.field) ? `${prefix}${err.field}` : err.field;
    throw DomainError.badRequest(err.message, { body: { field } });
  }
}
