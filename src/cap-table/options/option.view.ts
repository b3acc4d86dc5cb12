import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { Holding } from '../holdings/holding.entity';
import { GrantView, toHoldingView } from '../holdings/holding.view';
import type { ExerciseRequestStatus } from '../ledger/state';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { ExerciseRequest } from './exercise-request.entity';

export interface ExerciseRequestView {
  id: string;
  option: string;
  quantity: string;
  date: string;
  paymentMethod: string | null;
  status: ExerciseRequestStatus;
  created: string;
}

/** A pending request as the option view lists it (the option is the view's own). */
export type PendingRequestView = Omit<ExerciseRequestView, 'option'>;

/** A grant as the holding view shows it, with its pending exercise requests. */
export type OptionView = GrantView & { pendingRequests: PendingRequestView[] };

export const toExerciseRequestView = (r: ExerciseRequest): ExerciseRequestView => ({
  id: r.id,
  option: r.holdingId,
  quantity: toDecimalString(toDecimal(r.quantity)),
  date: r.date,
  paymentMethod: r.paymentMethod,
  status: r.status,
  created: r.created.toISOString(),
});

/** The option view of a grant: the holding view (as of `today`) and its pending requests. */
export function toOptionView(
  h: Holding,
  schedule: VestingScheduleEntity | null,
  pending: ExerciseRequest[],
  today: string,
): OptionView {
  return {
    ...(toHoldingView(h, schedule, today) as GrantView),
    pendingRequests: pending.map((r) => {
      const { option: _option, ...rest } = toExerciseRequestView(r);
      return rest;
    }),
  };
}
