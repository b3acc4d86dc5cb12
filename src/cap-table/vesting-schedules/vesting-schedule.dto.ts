import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import {
  ALLOCATION_TYPES,
  MAX_TOTAL_PERIODS,
  PERIOD_TYPES,
  totalPeriodsProblem,
  VESTING_DAY_OF_MONTH_VALUES,
  type AccelerationTrigger,
  type AllocationType,
  type PeriodType,
  type VestingDayOfMonth,
} from '../../../libs/cap-math';
import { DateField, DecimalField, PageQuery, Trim } from '../../common';

/**
 * Bounds that keep a schedule's events a list a response can carry: `totalPeriods` by period
 * type (`MAX_TOTAL_PERIODS`: 600 months, 50 years, 3,650 days), the cliff by the largest. Whether
 * a schedule makes sense as a whole (cliff within the schedule, a day of the month only for month
 * and year periods, acceleration 0..100) is cap-math's `validateSchedule`, so the API and the
 * library cannot disagree.
 */
const MAX_PERIODS = Math.max(...Object.values(MAX_TOTAL_PERIODS));
const MAX_PERIOD_LENGTH = 1_000;

/** Within `MAX_TOTAL_PERIODS` of the object's `periodType` (other rules judge other mistakes). */
function WithinPeriodBound(): PropertyDecorator {
  const problem = (value: unknown, object: object) =>
    typeof value === 'number'
      ? totalPeriodsProblem({
          totalPeriods: value,
          periodType: (object as ScheduleTermsDto).periodType,
        })
      : null;
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'withinPeriodBound',
      target: object.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown, args) => problem(value, args!.object) === null,
        defaultMessage: (args) => problem(args!.value, args!.object) ?? '',
      },
    });
}

export const ACCELERATION_TRIGGERS: readonly AccelerationTrigger[] = ['single', 'double'];

/** Acceleration on a change of control: single trigger, or double (with a termination after it). */
export class AccelerationDto {
  @ApiProperty({ enum: ACCELERATION_TRIGGERS })
  @IsIn(ACCELERATION_TRIGGERS)
  trigger: AccelerationTrigger;

  /** Percent (0 to 100) of the then-unvested quantity that vests on the trigger. */
  @DecimalField({ example: '100' })
  percent: string;
}

/** The terms of a schedule (OCF VestingTerms, time-based), as a stored schedule or inline. */
export class ScheduleTermsDto {
  /**
   * Number of periods (tranches): 48 for four years of monthly vesting. At most 600 for months,
   * 50 for years, 3,650 for days.
   */
  @ApiProperty({ example: 48, minimum: 1, maximum: MAX_PERIODS })
  @IsInt()
  @Min(1)
  @WithinPeriodBound()
  totalPeriods: number;

  /** Length of one period, in `periodType` units. */
  @ApiProperty({ example: 1, minimum: 1, maximum: MAX_PERIOD_LENGTH })
  @IsInt()
  @Min(1)
  @Max(MAX_PERIOD_LENGTH)
  periodLength: number;

  @ApiProperty({ enum: PERIOD_TYPES, example: 'months' })
  @IsIn(PERIOD_TYPES)
  periodType: PeriodType;

  /** Periods before anything vests; their tranches vest together at the cliff (0: no cliff). */
  @ApiProperty({ example: 12, minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(MAX_PERIODS)
  cliffPeriods: number;

  /** OCF AllocationType: how a quantity that does not divide evenly is spread over the tranches. */
  @ApiProperty({ enum: ALLOCATION_TYPES, example: 'CUMULATIVE_ROUNDING' })
  @IsIn(ALLOCATION_TYPES)
  allocationType: AllocationType;

  /** OCF VestingDayOfMonth (month and year periods); none: the vesting start day (or month end). */
  @ApiPropertyOptional({ enum: VESTING_DAY_OF_MONTH_VALUES, nullable: true })
  @IsOptional()
  @IsIn(VESTING_DAY_OF_MONTH_VALUES)
  vestingDayOfMonth?: VestingDayOfMonth | null;

  @ApiPropertyOptional({ type: AccelerationDto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => AccelerationDto)
  acceleration?: AccelerationDto | null;
}

/** `POST /v1/vestingSchedule` and `PUT /v1/vestingSchedule/:vestingSchedule` (the spec’s `:vestingScheduleOld`). */
export class VestingScheduleDto extends ScheduleTermsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  organization: string;

  /** The plan the schedule belongs to; none: usable by every plan of the organization. */
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @IsUUID()
  plan?: string | null;

  @ApiProperty({ example: 'Four years, one-year cliff' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;
}

export const SCHEDULE_VERSIONS = ['current', 'all'] as const;

export class ListVestingSchedulesQuery extends PageQuery {
  /** Only this organization's schedules; none: those of every organization the caller may view. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  organization?: string;

  /** Only the schedules of this plan (organization-wide ones are not included). */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  plan?: string;

  /** `current` (default): the latest version of each schedule; `all`: every version. */
  @ApiPropertyOptional({ enum: SCHEDULE_VERSIONS, default: 'current' })
  @IsOptional()
  @IsIn(SCHEDULE_VERSIONS)
  versions?: (typeof SCHEDULE_VERSIONS)[number];
}

/** `POST /v1/schedule/project`: a stored schedule (`vestingSchedule`) or one given inline. */
export class ProjectVestingDto {
  /** Shares to vest; whole for every allocation type but FRACTIONAL. */
  @DecimalField({ positive: true, example: '4800' })
  quantity: string;

  @DateField()
  vestingStartDate: string;

  /** A stored schedule (any version); exactly one of `vestingSchedule` and `schedule`. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  vestingSchedule?: string | null;

  @ApiPropertyOptional({ type: ScheduleTermsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ScheduleTermsDto)
  schedule?: ScheduleTermsDto | null;

  /** With single-trigger acceleration: the change of control it vests on. */
  @DateField({ optional: true })
  changeOfControlDate?: string | null;

  /** With double-trigger acceleration: the termination (on or after the change of control). */
  @DateField({ optional: true })
  terminationDate?: string | null;
}
