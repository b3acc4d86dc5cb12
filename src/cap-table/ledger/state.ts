/** The state the ledger's reducer works on, and its error. */
import type Decimal from 'decimal.js';
import type {
  ConversionRecord,
  ExerciseRequestRecord,
  HoldingRecord,
  HoldingStatus,
  PlanRecord,
  PoolRecord,
  VestingScheduleRecord,
} from './incentive-types';
import type {
  CapitalChangeRecord,
  LegendRecord,
  SecurityRecord,
  ValuationRecord,
} from './transaction-types';

export interface SecurityState extends Omit<SecurityRecord, 'authorizedShares'> {
  authorized: Decimal;
  issued: Decimal;
  /** Held back for stock plans: reserved, less what was exercised from them or retired. */
  reserved: Decimal;
  deleted: boolean;
  /** The number of the next certificate of the class (`<idPrefix><n>`). */
  nextCertificateNumber: number;
  /** The number of the next share of the class: shares are numbered in issuance order. */
  nextShareNumber: Decimal;
}

export type ShareholdingStatus = 'active' | 'voided' | 'transferred';

export interface ShareholdingState {
  id: string;
  memberId: string;
  securityId: string;
  quantity: Decimal;
  pricePerShare: string | null;
  issueDate: string;
  certificateNumber: string;
  status: ShareholdingStatus;
  legendIds: string[];
  consideration: string | null;
  /** The holding a transfer took these shares from. */
  transferredFromId: string | null;
}

/** A run of share numbers `from` to `to`, both included. */
export interface Block {
  from: Decimal;
  to: Decimal;
}

export interface LegendState extends LegendRecord {
  deleted: boolean;
}

/** The records one application of a transaction changed, for the writer to persist. */
export interface Touched {
  securities: Set<string>;
  legends: Set<string>;
  shareholdings: Set<string>;
  valuations: Set<string>;
  capitalChanges: Set<string>;
  schedules: Set<string>;
  plans: Set<string>;
  pools: Set<string>;
  holdings: Set<string>;
  requests: Set<string>;
}

/**
 * The cap table as the log makes it: all of it (a replay) or the part a write loaded and locked.
 * Quantities are Decimals; everything else is as the API shows it.
 */
export interface LedgerState {
  securities: Map<string, SecurityState>;
  legends: Map<string, LegendState>;
  shareholdings: Map<string, ShareholdingState>;
  blocks: Map<string, Block[]>;
  valuations: Map<string, ValuationRecord>;
  capitalChanges: Map<string, CapitalChangeRecord>;
  schedules: Map<string, VestingScheduleState>;
  plans: Map<string, PlanState>;
  pools: Map<string, PoolState>;
  /** Option grants, RSUs, SARs, warrants, convertible notes and SAFEs (`/v1/holding`). */
  holdings: Map<string, HoldingState>;
  requests: Map<string, ExerciseRequestState>;
  touched: Touched;
}

export interface VestingScheduleState extends VestingScheduleRecord {
  /** The id of the version that replaced it (a PUT), if any. */
  supersededById: string | null;
  deleted: boolean;
}

export interface PlanState extends Omit<PlanRecord, 'sharesReserved'> {
  sharesReserved: Decimal;
  /** Shares issued by exercising the plan's grants. */
  exercised: Decimal;
  /** Cancelled grants the plan retired instead of returning them to a pool. */
  retired: Decimal;
  deleted: boolean;
}

export interface PoolState extends Omit<PoolRecord, 'sharesReserved'> {
  sharesReserved: Decimal;
  /** Every quantity ever granted from it. */
  granted: Decimal;
  exercised: Decimal;
  cancelled: Decimal;
  /** Cancelled and returned to the pool (available again). */
  returned: Decimal;
  deleted: boolean;
}

export interface HoldingState extends Omit<HoldingRecord, 'terms'> {
  terms: HoldingRecord['terms'];
  status: HoldingStatus;
  /** Grants and warrants: the quantity granted, exercised and cancelled. */
  quantity: Decimal | null;
  exercised: Decimal;
  cancelled: Decimal;
  /** Notes: principal still owed, interest accrued and not paid up to `accruedThrough`. */
  principalOutstanding: Decimal | null;
  accruedUnpaid: Decimal;
  accruedThrough: string | null;
  interestPaid: Decimal;
  conversion: ConversionRecord | null;
}

/** `cancelled`: closed unanswered because the grant was cancelled or exercised in full. */
export type ExerciseRequestStatus = 'pending' | 'approved' | 'rejected' | 'cancelled';

export interface ExerciseRequestState extends ExerciseRequestRecord {
  status: ExerciseRequestStatus;
}

export type LedgerRule = 'insufficientShares' | 'conflict' | 'notFound' | 'invalid';

/** A transaction the state cannot take: the service turns it into a 400/404/409. */
export class LedgerRuleError extends Error {
  constructor(
    readonly rule: LedgerRule,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerRuleError';
  }
}

export function emptyState(): LedgerState {
  return {
    securities: new Map(),
    legends: new Map(),
    shareholdings: new Map(),
    blocks: new Map(),
    valuations: new Map(),
    capitalChanges: new Map(),
    schedules: new Map(),
    plans: new Map(),
    pools: new Map(),
    holdings: new Map(),
    requests: new Map(),
    touched: emptyTouched(),
  };
}

export const emptyTouched = (): Touched => ({
  securities: new Set(),
  legends: new Set(),
  shareholdings: new Set(),
  valuations: new Set(),
  capitalChanges: new Set(),
  schedules: new Set(),
  plans: new Set(),
  pools: new Set(),
  holdings: new Set(),
  requests: new Set(),
});
