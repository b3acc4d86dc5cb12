import type {
  AccelerationTrigger,
  AllocationType,
  PeriodType,
  VestingDayOfMonth,
  VestingSchedule,
} from '../../../libs/cap-math';
import { VestingScheduleEntity } from './vesting-schedule.entity';

/** One version of a vesting schedule, as the API shows it. */
export interface VestingScheduleView {
  id: string;
  organization: string;
  /** The plan it belongs to; null: usable by every plan of the organization. */
  plan: string | null;
  name: string;
  version: number;
  /** The version this one replaced (a PUT), if any. */
  previousVersion: string | null;
  /** The version that replaced this one, if any: grants made with it keep it. */
  supersededBy: string | null;
  totalPeriods: number;
  periodLength: number;
  periodType: PeriodType;
  cliffPeriods: number;
  allocationType: AllocationType;
  vestingDayOfMonth: VestingDayOfMonth | null;
  acceleration: { trigger: AccelerationTrigger; percent: string } | null;
  created: string;
}

export const VESTING_SCHEDULE_SHAPE =
  '{id, organization, plan, name, version, previousVersion, supersededBy, totalPeriods, periodLength, periodType ("days"|"months"|"years"), cliffPeriods, allocationType (OCF), vestingDayOfMonth (OCF) or null, acceleration {trigger: "single"|"double", percent} or null, created}';

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
