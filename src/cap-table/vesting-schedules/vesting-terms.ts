import {
  CapMathError,
  toDecimal,
  toDecimalString,
  validateSchedule,
  type AccelerationTrigger,
  type AllocationType,
  type PeriodType,
  type VestingDayOfMonth,
} from '../../../libs/cap-math';
import { previousAttributes } from '../../events';
import type { VestingScheduleRecord } from '../ledger/incentive-types';
import { LedgerRuleError } from '../ledger/ledger-state';
import type { DescribedEvent } from '../ledger/transactions/definition';
import { toScheduleTerms, VestingScheduleView } from './vesting-schedule.view';

/** Vesting terms as a caller gives them (the body of a POST or PUT of a schedule). */
export interface VestingTermsInput {
  name: string;
  planId?: string | null;
  totalPeriods: number;
  periodLength: number;
  periodType: PeriodType;
  cliffPeriods: number;
  allocationType: AllocationType;
  vestingDayOfMonth?: VestingDayOfMonth | null;
  acceleration?: { trigger: AccelerationTrigger; percent: string } | null;
}

/** What the log gives each version: its own id, its number and the version it replaces. */
type Identity = 'id' | 'version' | 'previousVersionId';

/** The terms as the log records them: absent optional terms null, the percent canonical. */
export function termsRecord(input: VestingTermsInput): Omit<VestingScheduleRecord, Identity> {
  return {
    name: input.name,
    planId: input.planId ?? null,
    totalPeriods: input.totalPeriods,
    periodLength: input.periodLength,
    periodType: input.periodType,
    cliffPeriods: input.cliffPeriods,
    allocationType: input.allocationType,
    vestingDayOfMonth: input.vestingDayOfMonth ?? null,
    acceleration: input.acceleration
      ? {
          trigger: input.acceleration.trigger,
          percent: toDecimalString(toDecimal(input.acceleration.percent)),
        }
      : null,
  };
}

/**
 * Terms cap-math can compute with (the cliff within the schedule, a day of the month only for
 * month and year periods, acceleration 0..100...): else refused naming the term.
 */
export function assertComputable(v: Omit<VestingScheduleRecord, Identity>): void {
  try {
    validateSchedule(
      toScheduleTerms({ ...v, vestingDayOfMonth: v.vestingDayOfMonth as VestingDayOfMonth | null }),
    );
  } catch (err) {
    if (err instanceof CapMathError) throw new LedgerRuleError('invalid', err.message, err.field);
    throw err;
  }
}

/** The terms an update event describes when they change. */
const DESCRIBED = [
  'name',
  'plan',
  'totalPeriods',
  'periodLength',
  'periodType',
  'cliffPeriods',
  'allocationType',
  'vestingDayOfMonth',
  'acceleration',
] as const;

/** `vesting_schedule.created`: the new schedule and its terms in words. */
export const termsCreated = (view: VestingScheduleView): DescribedEvent => ({
  object: view,
  description: `vesting schedule ${view.name}: created (${terms(view)})`,
});

/** `vesting_schedule.updated`: the new version, what the replaced one was, the terms that changed. */
export function termsReplaced(
  before: VestingScheduleView,
  after: VestingScheduleView,
): DescribedEvent {
  const previous = previousAttributes(before, { ...after, created: before.created });
  const changed = DESCRIBED.filter((k) => k in previous).map(
    (k) => `${k} ${show(before[k])} -> ${show(after[k])}`,
  );
  return {
    object: after,
    previous,
    description:
      `vesting schedule ${after.name}: version ${after.version} replaces version ${before.version}` +
      (changed.length ? ` (${changed.join('; ')})` : ' (same terms)'),
  };
}

/** `vesting_schedule.deleted`: the schedule as it was. */
export const termsDeleted = (view: VestingScheduleView): DescribedEvent => ({
  object: view,
  description: `vesting schedule ${view.name} (version ${view.version}): deleted`,
});

/** `48 × 1 months, 12-period cliff, CUMULATIVE_ROUNDING` for the activity log. */
const terms = (v: VestingScheduleView) =>
  `${v.totalPeriods} × ${v.periodLength} ${v.periodType}, ` +
  `${v.cliffPeriods ? `${v.cliffPeriods}-period cliff` : 'no cliff'}, ${v.allocationType}` +
  (v.acceleration
    ? `, ${v.acceleration.trigger}-trigger acceleration ${v.acceleration.percent}%`
    : '');

const show = (v: VestingScheduleView[(typeof DESCRIBED)[number]]) =>
  v === null ? 'none' : typeof v === 'object' ? `${v.trigger}-trigger ${v.percent}%` : String(v);
