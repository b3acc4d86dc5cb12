import type { Json } from '../../../libs/ocf';

/** The time-based schedule an OCF VestingTerms object describes, in the ledger's terms. */
export interface ScheduleShape {
  totalPeriods: number;
  periodLength: number;
  periodType: 'days' | 'months';
  cliffPeriods: number;
  /** null: the default, the vesting start day (or the month's last day). */
  vestingDayOfMonth: string | null;
}

const DEFAULT_DAY = 'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH';

interface Period {
  length: number;
  type: string;
  occurrences: number;
  day_of_month?: string;
  cliff_installment?: number;
}

const triggerOf = (c: Json) => (c.trigger ?? {}) as Json;
const periodOf = (c: Json) => triggerOf(c).period as Period | undefined;

/**
 * Reads OCF vesting conditions as the ledger's schedule (`totalPeriods` equal periods of
 * `periodLength` days or months, the first `cliffPeriods` paid at the cliff), or says why they do
 * not fit it. Two shapes fit: a start condition followed by one relative periodic condition
 * (`occurrences` periods, `cliff_installment` of them at the cliff), or a start condition, a
 * one-time cliff `k` periods after it and a periodic condition after the cliff.
 */
export function scheduleShape(terms: Json): ScheduleShape | string {
  const conditions = (terms.vesting_conditions ?? []) as Json[];
  const starts = conditions.filter((c) => triggerOf(c).type === 'VESTING_START_DATE');
  const relative = conditions.filter((c) => triggerOf(c).type === 'VESTING_SCHEDULE_RELATIVE');
  const others = conditions.length - starts.length - relative.length;
  if (starts.length !== 1 || others > 0 || !relative.length || relative.length > 2) {
    return 'only time-based vesting (a start, an optional cliff, equal periods after it) has a counterpart';
  }
  const start = starts[0];
  if ((start.quantity !== undefined && Number(start.quantity) !== 0) || start.portion) {
    return 'vesting at the start date has no counterpart';
  }
  const after = (id: unknown) =>
    relative.filter((c) => triggerOf(c).relative_to_condition_id === id);
  const first = after(start.id);
  if (first.length !== 1) return 'the vesting conditions do not form one chain from the start';
  const p1 = periodOf(first[0]);
  if (!p1 || p1.length < 1 || p1.occurrences < 1) return 'a vesting period is empty';
  const type = p1.type === 'MONTHS' ? 'months' : p1.type === 'DAYS' ? 'days' : null;
  if (!type) return `vesting periods of type ${String(p1.type)} have no counterpart`;
  const day = (p: Period) =>
    type === 'months' && p.day_of_month && p.day_of_month !== DEFAULT_DAY ? p.day_of_month : null;

  if (relative.length === 1) {
    const cliff = p1.cliff_installment ?? 0;
    if (cliff > p1.occurrences) return 'the cliff is longer than the schedule';
    return {
      totalPeriods: p1.occurrences,
      periodLength: p1.length,
      periodType: type,
      cliffPeriods: cliff,
      vestingDayOfMonth: day(p1),
    };
  }
  const second = after(first[0].id);
  const p2 = second.length === 1 ? periodOf(second[0]) : undefined;
  if (!p2 || p1.occurrences !== 1 || p2.type !== p1.type || p2.length < 1 || p2.cliff_installment) {
    return 'only a one-time cliff followed by equal periods has a counterpart';
  }
  if (p1.length % p2.length !== 0) return 'the cliff is not a whole number of vesting periods';
  const cliff = p1.length / p2.length;
  return {
    totalPeriods: cliff + p2.occurrences,
    periodLength: p2.length,
    periodType: type,
    cliffPeriods: cliff,
    vestingDayOfMonth: day(p2),
  };
}
