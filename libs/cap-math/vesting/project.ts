import { DecimalInput, toDecimalString } from '../decimal';
import { IsoDate } from '../dates';
import { accelerate, effectiveAccelerationDate } from './acceleration';
import { VestingSchedule } from './schedule';
import { vestingEvents } from './vesting-events';

export interface VestingProjectionInput {
  schedule: VestingSchedule;
  quantity: DecimalInput;
  vestingStartDate: IsoDate;
  changeOfControlDate?: IsoDate | null;
  terminationDate?: IsoDate | null;
}

export interface VestingProjection {
  events: { date: IsoDate; amount: string; cumulative: string }[];
  /** The date the schedule's acceleration took effect, or null. */
  accelerationDate: IsoDate | null;
}

/**
 * Preview of a grant's vesting as decimal strings, ready for an API response. When the
 * schedule has acceleration terms and the given change-of-control / termination dates
 * trigger them, the acceleration is applied (see `accelerate` for the rule).
 */
export function projectVesting(input: VestingProjectionInput): VestingProjection {
  const { schedule } = input;
  let events = vestingEvents(schedule, input.quantity, input.vestingStartDate);
  const accelerationDate = schedule.acceleration
    ? effectiveAccelerationDate({
        trigger: schedule.acceleration.trigger,
        changeOfControlDate: input.changeOfControlDate,
        terminationDate: input.terminationDate,
      })
    : null;
  if (schedule.acceleration && accelerationDate) {
    events = accelerate(
      events,
      {
        percent: schedule.acceleration.percent,
        fractional: schedule.allocationType === 'FRACTIONAL',
      },
      accelerationDate,
    );
  }
  return {
    accelerationDate,
    events: events.map((e) => ({
      date: e.date,
      amount: toDecimalString(e.amount),
      cumulative: toDecimalString(e.cumulative),
    })),
  };
}
