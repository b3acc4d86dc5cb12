import type { TransactionType } from './transaction-types';

/** The log as its long readers (the OCF export) read it: entries with the shareholdings they name. */

/** What the log query adds to an entry about a shareholding it names, as the shareholding stands. */
export interface LoggedShareholding {
  certificateNumber: string;
  memberId: string;
  securityId: string;
  pricePerShare: string | null;
  legendIds: string[];
  consideration: string | null;
  /** The issue date as corrected (an issuance counts from it). */
  issueDate: string;
}

/** A log entry, with the shareholdings it names. */
export interface LedgerLogEntry {
  id: string;
  type: TransactionType;
  effectiveDate: string;
  payload: Record<string, unknown>;
  /**
   * The shareholding the entry created (issuance, transfer, exercise, conversion), as it stands:
   * `issuedQuantity` is what it was issued with, corrections included (its quantity now plus all
   * that was transferred out of it).
   */
  made: (LoggedShareholding & { issuedQuantity: string }) | null;
  /** A transfer's source, and what it held right after this transfer. */
  source: (LoggedShareholding & { remainder: string }) | null;
}

/** A correction of an issuance or a holding, from the log. */
export interface LedgerLogAmendment {
  id: string;
  type: 'STOCK_ISSUANCE_AMENDED' | 'HOLDING_AMENDED';
  effectiveDate: string;
  holdingId: string;
  changes: Record<string, unknown>;
}
