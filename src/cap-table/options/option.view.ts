import { ApiProperty } from '@nestjs/swagger';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { Holding } from '../holdings/holding.entity';
import { GrantView, toHoldingView } from '../holdings/holding.view';
import type { ExerciseRequestStatus } from '../ledger/ledger-state';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { ExerciseRequest } from './exercise-request.entity';

const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;

/** A pending request as the option view lists it (the option is the view's own). */
export class PendingRequestView {
  @UuidView() id: string;
  /** Shares the holder asks to exercise. */
  @DecimalView({ example: '1200' }) quantity: string;
  /** The exercise date asked for. */
  @DateView() date: string;
  /** How the exercise price is paid (free text); null: not said. */
  paymentMethod: string | null;
  /** `cancelled`: the option was cancelled while the request was pending. */
  @ApiProperty({ enum: REQUEST_STATUSES }) status: ExerciseRequestStatus;
  @TimestampView() created: string;
}

/** A holder's request to exercise part of their option. */
export class ExerciseRequestView extends PendingRequestView {
  /** The option (grant) it asks to exercise. */
  @UuidView() option: string;
}

/** A grant as the holding view shows it, with its pending exercise requests. */
export class OptionView extends GrantView {
  /** Its pending exercise requests, oldest first. */
  pendingRequests: PendingRequestView[];
}

/** An option exercise: shares of the plan's class issued at the exercise price. */
export class ExerciseView {
  /** The exercise transaction of the log. */
  @UuidView() id: string;
  @UuidView() option: string;
  @DecimalView({ example: '1200' }) quantity: string;
  /** The shareholding the exercise issued. */
  @UuidView() shareholding: string;
  @DateView() date: string;
  paymentMethod: string | null;
  /** The request this exercise approved; null: none. */
  @UuidView({ nullable: true }) request: string | null;
}

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
