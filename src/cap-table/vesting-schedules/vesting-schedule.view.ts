import { ApiProperty } from '@nestjs/swagger';
import {
  ALLOCATION_TYPES,
  PERIOD_TYPES,
  VESTING_DAY_OF_MONTH_VALUES,
  type AccelerationTrigger,
  type AllocationType,
  type PeriodType,
  type VestingDayOfMonth,
  type VestingSchedule,
} from '../../../libs/cap-math';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { VestingScheduleEntity } from './vesting-schedule.entity';

/** Acceleration on a change of control (single trigger), or on a termination after it (double). */
export class AccelerationView {
  @ApiProperty({ enum: ['single', 'double'] }) trigger: AccelerationTrigger;
  /** Percent (0 to 100) of the then-unvested quantity that vests on the trigger. */
  @DecimalView({ example: '100' }) percent: string;
}

/** One version of a vesting schedule (OCF VestingTerms), as the API shows it. */
export class VestingScheduleView {
  @UuidView() id: string;
  @UuidView() organization: string;
  /** The plan it belongs to; null: usable by every plan of the organization. */
  @UuidView({ nullable: true }) plan: string | null;
  name: string;
  /** 1 for a new schedule; each PUT stores the next. */
  @ApiProperty({ type: 'integer', example: 1, minimum: 1 }) version: number;
  /** The version this one replaced (a PUT), if any. */
  @UuidView({ nullable: true }) previousVersion: string | null;
  /** The version that replaced this one, if any: grants made with it keep it. */
  @UuidView({ nullable: true }) supersededBy: string | null;
  /** Number of periods (tranches). */
  @ApiProperty({ type: 'integer', example: 48 }) totalPeriods: number;
  /** Length of one period, in `periodType` units. */
  @ApiProperty({ type: 'integer', example: 1 }) periodLength: number;
  @ApiProperty({ enum: PERIOD_TYPES }) periodType: PeriodType;
  /** Periods before anything vests; their tranches vest together at the cliff. */
  @ApiProperty({ type: 'integer', example: 12 }) cliffPeriods: number;
  /** OCF AllocationType: how a quantity that does not divide evenly is spread. */
  @ApiProperty({ enum: ALLOCATION_TYPES }) allocationType: AllocationType;
  /** OCF VestingDayOfMonth; null: the vesting start day (or the month's end). */
  @ApiProperty({ enum: VESTING_DAY_OF_MONTH_VALUES, nullable: true })
  vestingDayOfMonth: VestingDayOfMonth | null;
  /** Null: none. */
  @ApiProperty({ type: AccelerationView, nullable: true }) acceleration: AccelerationView | null;
  @TimestampView() created: string;
}

/** One vesting date of a projection. */
export class VestingEventView {
  @DateView() date: string;
  /** Shares vesting on the date. */
  @DecimalView({ example: '100' }) amount: string;
  /** Shares vested by the end of the date. */
  @DecimalView({ example: '1200' }) cumulative: string;
}

/** `POST /v1/schedule/project`: the vesting events of the quantity, in date order. */
export class VestingProjectionView {
  /** The cliff's tranches vest together on the cliff date; nothing before it. */
  events: VestingEventView[];
}

export const toVestingScheduleView = (v: VestingScheduleEntity): VestingScheduleView => ({
  id: v.id,
  organization: v.organizationId,
  plan: v.planId,
  name: v.name,
  version: v.version,
  previousVersion: v.previousVersionId,
  supersededBy: v.supersededById,
  totalPeriods: v.totalPeriods,
  periodLength: v.periodLength,
  periodType: v.periodType,
  cliffPeriods: v.cliffPeriods,
  allocationType: v.allocationType,
  vestingDayOfMonth: v.vestingDayOfMonth as VestingDayOfMonth | null,
  acceleration: v.acceleration,
  created: v.created.toISOString(),
});

/** The terms cap-math computes with (absent optional terms left out, as the library expects). */
export const toScheduleTerms = (
  v: Pick<
    VestingScheduleView,
    | 'totalPeriods'
    | 'periodLength'
    | 'periodType'
    | 'cliffPeriods'
    | 'allocationType'
    | 'vestingDayOfMonth'
    | 'acceleration'
  >,
): VestingSchedule => ({
  totalPeriods: v.totalPeriods,
  periodLength: v.periodLength,
  periodType: v.periodType,
  cliffPeriods: v.cliffPeriods,
  allocationType: v.allocationType,
  ...(v.vestingDayOfMonth ? { vestingDayOfMonth: v.vestingDayOfMonth } : {}),
  ...(v.acceleration ? { acceleration: v.acceleration } : {}),
});
