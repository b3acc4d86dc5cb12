import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type {
  AccelerationTrigger,
  AllocationType,
  DayCountConvention,
  InterestType,
  PeriodType,
} from '../../../libs/cap-math';

/**
 * The records of equity incentives and convertibles as the log carries them (Open Cap Format's
 * StockPlan, VestingTerms, EquityCompensationIssuance, WarrantIssuance, ConvertibleIssuance),
 * decimals as strings and dates `YYYY-MM-DD`.
 */

/** Granted from a plan's pool. */
export const GRANT_TYPES = ['option_iso', 'option_nso', 'option', 'rsu', 'sar'] as const;
export const HOLDING_TYPES = [...GRANT_TYPES, 'warrant', 'convertible_note', 'safe'] as const;
export type HoldingType = (typeof HOLDING_TYPES)[number];
export type GrantType = (typeof GRANT_TYPES)[number];

/** Exercised into shares: plan grants and warrants. */
export const EXERCISABLE_TYPES: ReadonlySet<HoldingType> = new Set([...GRANT_TYPES, 'warrant']);
export const CONVERTIBLE_TYPES: ReadonlySet<HoldingType> = new Set(['convertible_note', 'safe']);
export const isGrantType = (t: HoldingType): t is GrantType =>
  (GRANT_TYPES as readonly string[]).includes(t);

const LABELS: Record<HoldingType, string> = {
  option_iso: 'ISO option grant',
  option_nso: 'NSO option grant',
  option: 'option grant',
  rsu: 'RSU grant',
  sar: 'SAR grant',
  warrant: 'warrant',
  convertible_note: 'convertible note',
  safe: 'SAFE',
};

/** `ISO option grant`, `convertible note`, `SAFE` ... for messages and activity descriptions. */
export const holdingLabel = (type: HoldingType): string => LABELS[type] ?? type;

/** Stored statuses; `expired` is shown for an active grant past its expiration date. */
export type HoldingStatus = 'active' | 'exercised' | 'converted' | 'repaid' | 'cancelled';

export const CANCELLATION_BEHAVIORS = ['return_to_pool', 'retire'] as const;
export type CancellationBehavior = (typeof CANCELLATION_BEHAVIORS)[number];

export interface VestingScheduleRecord {
  id: string;
  name: string;
  /** A schedule of one plan (else of the whole organization). */
  planId: string | null;
  /** 1 for a new schedule; a PUT stores version + 1 under a new id. */
  version: number;
  previousVersionId: string | null;
  totalPeriods: number;
  periodLength: number;
  periodType: PeriodType;
  cliffPeriods: number;
  allocationType: AllocationType;
  vestingDayOfMonth: string | null;
  acceleration: { trigger: AccelerationTrigger; percent: string } | null;
}

export interface PlanRecord {
  id: string;
  name: string;
  /** The class its grants exercise into. */
  securityId: string;
  sharesReserved: string;
  boardApprovalDate: string | null;
  stockholderApprovalDate: string | null;
  defaultCancellationBehavior: CancellationBehavior;
}

export interface PoolRecord {
  id: string;
  planId: string;
  name: string;
  sharesReserved: string;
}

export interface TerminationWindow {
  reason: string;
  period: number;
  periodType: PeriodType;
}

/** The terms of a holding, by type (API names; absent fields do not apply to the type). */
/** Percentages are on a 0–100 scale in the API and the log; the math takes fractions. */
export const fractionOf = (percent: string | null | undefined): string | undefined =>
  percent === null || percent === undefined
    ? undefined
    : toDecimalString(toDecimal(percent).div(100));

export interface HoldingTerms {
  // Grants and warrants.
  quantity?: string;
  exercisePrice?: string | null;
  grantDate?: string;
  expirationDate?: string | null;
  vestingStartDate?: string | null;
  earlyExercisable?: boolean;
  terminationExerciseWindows?: TerminationWindow[];
  // Convertible notes and SAFEs.
  principal?: string;
  amount?: string;
  currency?: string;
  /** Percent a year, 0–100 ("6" for 6%). */
  interestRate?: string;
  interestType?: InterestType;
  dayCount?: DayCountConvention;
  issueDate?: string;
  maturityDate?: string;
  valuationCap?: string | null;
  /** Percent off the round price, 0–100 ("20" for 20%). */
  discount?: string | null;
  safeType?: 'pre_money' | 'post_money';
  mfn?: boolean;
  proRata?: boolean;
}

export interface HoldingRecord {
  id: string;
  memberId: string;
  type: HoldingType;
  planId: string | null;
  poolId: string | null;
  /** The class it becomes: the plan's for grants, the warrant's own. */
  securityId: string | null;
  vestingScheduleId: string | null;
  terms: HoldingTerms;
}

export interface HoldingAmendment {
  terms?: HoldingTerms;
  vestingScheduleId?: string | null;
  memberId?: string;
}

export interface ExerciseRequestRecord {
  id: string;
  holdingId: string;
  quantity: string;
  date: string;
  paymentMethod: string | null;
  requestedByUserId: string | null;
}

/** What a conversion turned a note or SAFE into. */
export interface ConversionRecord {
  date: string;
  shareholdingId: string;
  securityId: string;
  shares: string;
  conversionPrice: string;
  method: 'cap' | 'discount' | 'price';
  /** What converted: a SAFE's amount, a note's outstanding principal plus accrued interest. */
  conversionAmount: string;
  roundPricePerShare: string;
  preMoneyValuation: string | null;
}

export interface IncentivePayloads {
  VESTING_TERMS_CREATED: { vestingSchedule: VestingScheduleRecord };
  VESTING_TERMS_DELETED: { vestingScheduleId: string };
  STOCK_PLAN_CREATED: { plan: PlanRecord };
  STOCK_PLAN_UPDATED: {
    planId: string;
    changes: Partial<Omit<PlanRecord, 'id' | 'securityId' | 'sharesReserved'>>;
  };
  TX_STOCK_PLAN_POOL_ADJUSTMENT: {
    planId: string;
    previousSharesReserved: string;
    sharesReserved: string;
  };
  STOCK_PLAN_DELETED: { planId: string };
  STOCK_PLAN_POOL_CREATED: { pool: PoolRecord };
  STOCK_PLAN_POOL_UPDATED: { poolId: string; changes: { name?: string; sharesReserved?: string } };
  STOCK_PLAN_POOL_DELETED: { poolId: string };
  TX_EQUITY_COMPENSATION_ISSUANCE: { holding: HoldingRecord };
  TX_WARRANT_ISSUANCE: { holding: HoldingRecord };
  TX_CONVERTIBLE_ISSUANCE: { holding: HoldingRecord };
  HOLDING_AMENDED: { holdingId: string; changes: HoldingAmendment };
  /** Cancels what is outstanding; `returnedToPool` as the plan said at the time. */
  TX_EQUITY_COMPENSATION_CANCELLATION: {
    holdingId: string;
    quantity: string;
    returnedToPool: boolean;
    reason: string;
  };
  TX_WARRANT_CANCELLATION: { holdingId: string; quantity: string; reason: string };
  TX_CONVERTIBLE_CANCELLATION: { holdingId: string; reason: string };
  EXERCISE_REQUESTED: { request: ExerciseRequestRecord };
  EXERCISE_REQUEST_REJECTED: { requestId: string };
  /** Plan grants and warrants alike: shares of the holding's class at the exercise price. */
  TX_EQUITY_COMPENSATION_EXERCISE: ExercisePayload;
  TX_WARRANT_EXERCISE: ExercisePayload;
  TX_CONVERTIBLE_REPAYMENT: { holdingId: string; amount: string; date: string };
  TX_CONVERTIBLE_CONVERSION: {
    holdingId: string;
    conversion: ConversionRecord;
    legendIds: string[];
  };
}

export interface ExercisePayload {
  holdingId: string;
  requestId: string | null;
  quantity: string;
  date: string;
  paymentMethod: string | null;
  shareholdingId: string;
  legendIds: string[];
}
