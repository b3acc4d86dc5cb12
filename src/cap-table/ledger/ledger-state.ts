/** The state the ledger's reducer (reducer.ts) works on, and its error. */
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

/**
 * How a shareholding ends, by the transaction type that ends it: a new type that ends one adds
 * its status by augmenting this interface in its own file, and names it in its definition
 * (`endsShareholdingAs`), from which the routes' lists of statuses are made.
 */
export interface ShareholdingEndings {
  voided: 'TX_STOCK_CANCELLATION';
  transferred: 'TX_STOCK_TRANSFER';
}

export type ShareholdingStatus = 'active' | keyof ShareholdingEndings;

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

/** The kinds of record the state holds by id, and what each holds. */
export interface LedgerRecords {
  securities: SecurityState;
  legends: LegendState;
  shareholdings: ShareholdingState;
  valuations: ValuationRecord;
  capitalChanges: CapitalChangeRecord;
  schedules: VestingScheduleState;
  plans: PlanState;
  pools: PoolState;
  /** Option grants, RSUs, SARs, warrants, convertible notes and SAFEs (`/v1/holding`). */
  holdings: HoldingState;
  requests: ExerciseRequestState;
}

export type RecordKind = keyof LedgerRecords;

export const RECORD_KINDS: readonly RecordKind[] = [
  'securities',
  'legends',
  'shareholdings',
  'valuations',
  'capitalChanges',
  'schedules',
  'plans',
  'pools',
  'holdings',
  'requests',
];

/** The ids of the records changed since the changes were last taken, by kind. */
export type Changes = { [K in RecordKind]: Set<string> };

const noChanges = (): Changes =>
  Object.fromEntries(RECORD_KINDS.map((k) => [k, new Set<string>()])) as Changes;

/**
 * The cap table as the log makes it: all of it (a replay) or the part a write loaded and locked.
 * Quantities are Decimals; everything else is as the API shows it. A rule changes a record only
 * through `put` (or `putBlocks`), so the state itself knows what a transaction changed and the
 * writer persists exactly that.
 */
export class LedgerState {
  readonly securities = new Map<string, SecurityState>();
  readonly legends = new Map<string, LegendState>();
  readonly shareholdings = new Map<string, ShareholdingState>();
  /** The share numbers each shareholding holds, by shareholding id. */
  readonly blocks = new Map<string, Block[]>();
  readonly valuations = new Map<string, ValuationRecord>();
  readonly capitalChanges = new Map<string, CapitalChangeRecord>();
  readonly schedules = new Map<string, VestingScheduleState>();
  readonly plans = new Map<string, PlanState>();
  readonly pools = new Map<string, PoolState>();
  readonly holdings = new Map<string, HoldingState>();
  readonly requests = new Map<string, ExerciseRequestState>();
  private changed = noChanges();

  /** Stores a new or changed record (changed in place or not) and notes the change. */
  put<K extends RecordKind>(kind: K, record: LedgerRecords[K]): LedgerRecords[K] {
    (this[kind] as Map<string, LedgerRecords[K]>).set(record.id, record);
    this.changed[kind].add(record.id);
    return record;
  }

  /** A shareholding's share numbers changed: the shareholding is written with its blocks. */
  putBlocks(shareholdingId: string, blocks: Block[]): void {
    this.blocks.set(shareholdingId, blocks);
    this.changed.shareholdings.add(shareholdingId);
  }

  /** What was put since the last call, and starts a new count. */
  takeChanges(): Changes {
    const changes = this.changed;
    this.changed = noChanges();
    return changes;
  }
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

/** `invalidFields`: fields a command needs were left out (the API's 400 `invalidFields`). */
export type LedgerRule =
  'insufficientShares' | 'conflict' | 'notFound' | 'invalid' | 'invalidFields';

/** A transaction the state cannot take: the service turns it into a 400/404/409. */
export class LedgerRuleError extends Error {
  constructor(
    readonly rule: LedgerRule,
    message: string,
    /** The payload field it is about, when one is: the API names it in the error body. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LedgerRuleError';
  }
}

export const emptyState = (): LedgerState => new LedgerState();
