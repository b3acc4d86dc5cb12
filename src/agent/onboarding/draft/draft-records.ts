import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import type { HoldingRecord } from '../../../cap-table';
import type { ClassState, PlanState, PoolState, ScheduleState } from '../../../ocf';
import { DEFAULT_CLASS_TYPE, DEFAULT_PERIOD_TYPE, type ItemCollection } from './draft-collections';
import type {
  DraftConvertible,
  DraftOptionGrant,
  DraftOptionPlan,
  DraftOptionPool,
  DraftShareClass,
  DraftVestingSchedule,
} from './onboarding-draft.dto';

/**
 * Draft items as the ledger's records, so that the OCF export's own writers (src/ocf/export,
 * the transaction definitions) write their OCF objects: what the export writes the import reads
 * back exactly (the export's round trip is tested), and the draft gets no OCF writer of its own.
 */

const ZERO = toDecimal('0');

/** The OCF id of a draft item: its list and its id (deterministic, readable in reasons). */
export const ocfIdOf = (collection: ItemCollection, id: string) => `${collection}:${id}`;
/** The OCF security id an issuance of the draft issues. */
export const securityIdOf = (collection: ItemCollection, id: string) =>
  `${ocfIdOf(collection, id)}:security`;

/** Percent on the ledger's 0–100 scale, of a draft's fraction. */
const percentOf = (fraction: string | undefined) =>
  fraction === undefined ? null : toDecimalString(toDecimal(fraction).times(100));

export function classState(c: DraftShareClass, currency: string): ClassState {
  return {
    id: ocfIdOf('shareClasses', c.id),
    name: c.name,
    classType: (c.class_type ?? DEFAULT_CLASS_TYPE) === 'PREFERRED' ? 'preferred' : 'common',
    idPrefix:
      c.default_id_prefix ?? ((c.class_type ?? DEFAULT_CLASS_TYPE) === 'PREFERRED' ? 'PS-' : 'CS-'),
    parValue: c.par_value ?? null,
    originalIssuePrice: c.price_per_share ?? null,
    currency,
    seniority: c.seniority ?? 1,
    liquidationPreferenceMultiple: null,
    participating: false,
    participationCapMultiple: null,
    conversionRatio: '1',
    votesPerShare: c.votes_per_share ?? '1',
    boardApprovalDate: null,
    authorized: toDecimal(c.initial_shares_authorized),
    issued: ZERO,
    reserved: ZERO,
    deleted: false,
    nextCertificateNumber: 1,
    nextShareNumber: ZERO,
  };
}

export function planState(p: DraftOptionPlan, classId: string): PlanState {
  return {
    id: ocfIdOf('optionPlans', p.id),
    name: p.plan_name,
    securityId: ocfIdOf('shareClasses', classId),
    sharesReserved: toDecimal(p.initial_shares_reserved),
    boardApprovalDate: p.board_approval_date ?? null,
    stockholderApprovalDate: null,
    defaultCancellationBehavior: 'return_to_pool',
    exercised: ZERO,
    retired: ZERO,
    deleted: false,
  };
}

export function poolState(p: DraftOptionPool): PoolState {
  return {
    id: ocfIdOf('optionPools', p.id),
    planId: ocfIdOf('optionPlans', p.stock_plan_id),
    name: p.name,
    sharesReserved: toDecimal(p.shares_reserved),
    granted: ZERO,
    exercised: ZERO,
    cancelled: ZERO,
    returned: ZERO,
    deleted: false,
  };
}

/** OCF's `cliff_installment` periods at the cliff are the ledger's cliff periods. */
export function scheduleState(v: DraftVestingSchedule): ScheduleState {
  return {
    id: ocfIdOf('vestingSchedules', v.id),
    name: v.name,
    planId: null,
    version: 1,
    previousVersionId: null,
    totalPeriods: v.occurrences,
    periodLength: v.period_length,
    periodType: (v.period_type ?? DEFAULT_PERIOD_TYPE) === 'DAYS' ? 'days' : 'months',
    cliffPeriods: v.cliff_installment ?? 0,
    allocationType: 'CUMULATIVE_ROUNDING',
    vestingDayOfMonth: null,
    acceleration: null,
    supersededById: null,
    deleted: false,
  };
}

/** An option of a plan; its class is the plan's. */
export function grantRecord(g: DraftOptionGrant, classId: string, date: string): HoldingRecord {
  return {
    id: securityIdOf('optionGrants', g.id),
    memberId: ocfIdOf('people', g.stakeholder_id),
    type: 'option',
    planId: ocfIdOf('optionPlans', g.stock_plan_id),
    poolId: g.pool_id === undefined ? null : ocfIdOf('optionPools', g.pool_id),
    securityId: ocfIdOf('shareClasses', classId),
    vestingScheduleId:
      g.vesting_terms_id === undefined ? null : ocfIdOf('vestingSchedules', g.vesting_terms_id),
    terms: {
      quantity: g.quantity,
      exercisePrice: g.exercise_price,
      grantDate: date,
      expirationDate: g.expiration_date ?? null,
      vestingStartDate: g.vesting_start_date ?? date,
      earlyExercisable: false,
      terminationExerciseWindows: [],
    },
  };
}

/** A SAFE or a note (a CONVERTIBLE_SECURITY is written as a SAFE, then retyped by the caller). */
export function convertibleRecord(
  c: DraftConvertible,
  currency: string,
  date: string,
): HoldingRecord {
  const note = c.convertible_type === 'NOTE';
  const shared = {
    currency,
    issueDate: date,
    valuationCap: c.valuation_cap ?? null,
    discount: percentOf(c.discount),
  };
  return {
    id: securityIdOf('convertibles', c.id),
    memberId: ocfIdOf('people', c.stakeholder_id),
    type: note ? 'convertible_note' : 'safe',
    planId: null,
    poolId: null,
    securityId: null,
    vestingScheduleId: null,
    terms: note
      ? {
          ...shared,
          principal: c.investment_amount,
          interestRate: percentOf(c.interest_rate) ?? '0',
          interestType: 'simple',
          dayCount: 'actual/365',
          maturityDate: c.maturity_date,
        }
      : { ...shared, amount: c.investment_amount, safeType: 'post_money', mfn: false },
  };
}
