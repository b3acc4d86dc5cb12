import type { IncentivePayloads } from './incentive-types';

/**
 * The kinds of change the equity transaction log records: the keys of TransactionPayloads. Open
 * Cap Format's transaction types keep their names (`TX_STOCK_ISSUANCE` ...); changes OCF models
 * as objects rather than transactions (a class, a legend, a valuation) are logged under names of
 * the same style, so the log alone rebuilds every table of the cap table. A new type declares
 * its payload in its own definition file (by augmenting TransactionPayloads) and has its line in
 * the registry (transactions/index.ts), which the compiler holds to one definition per type.
 */
export type TransactionType = keyof TransactionPayloads;

export type ClassType = 'common' | 'preferred';

/** A share class as the log carries it (decimals as strings, dates `YYYY-MM-DD`). */
export interface SecurityRecord {
  id: string;
  name: string;
  classType: ClassType;
  idPrefix: string;
  authorizedShares: string;
  parValue: string | null;
  originalIssuePrice: string | null;
  currency: string;
  seniority: number;
  liquidationPreferenceMultiple: string | null;
  /** Participating preferred: after its preference it shares in what is left, as converted. */
  participating: boolean;
  participationCapMultiple: string | null;
  conversionRatio: string;
  votesPerShare: string;
  boardApprovalDate: string | null;
}

export interface LegendRecord {
  id: string;
  name: string;
  text: string;
  isDefault: boolean;
}

export interface ValuationRecord {
  id: string;
  type: string;
  pricePerShare: string;
  securityId: string | null;
  effectiveDate: string;
  provider: string | null;
  reportFileId: string | null;
}

export interface CapitalChangeRecord {
  id: string;
  memberId: string;
  entityId: string;
  date: string;
  amount: string;
  currency: string;
  type: 'contribution' | 'distribution';
  description: string | null;
}

export type SecurityChanges = Partial<Omit<SecurityRecord, 'id' | 'authorizedShares'>>;
export type LegendChanges = Partial<Omit<LegendRecord, 'id'>>;
export type ValuationChanges = Partial<Omit<ValuationRecord, 'id'>>;
export type CapitalChangeChanges = Partial<
  Omit<CapitalChangeRecord, 'id' | 'memberId' | 'entityId'>
>;

export interface IssuanceAmendment {
  quantity?: string;
  pricePerShare?: string | null;
  issueDate?: string;
  legendIds?: string[];
  consideration?: string | null;
}

/** The payload of each transaction type: everything a replay needs, ids included. */
export interface TransactionPayloads extends IncentivePayloads {
  STOCK_CLASS_CREATED: { security: SecurityRecord };
  STOCK_CLASS_UPDATED: { securityId: string; changes: SecurityChanges };
  STOCK_CLASS_DELETED: { securityId: string };
  TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: {
    securityId: string;
    previousSharesAuthorized: string;
    newSharesAuthorized: string;
    reason: string | null;
  };
  TX_STOCK_CLASS_SPLIT: {
    securityId: string;
    /** New shares for `denominator` old ones: 2/1 doubles, 1/10 is a reverse split. */
    numerator: string;
    denominator: string;
    /** Fractional shares are kept (an LLC's units), else each holding is rounded down. */
    fractional: boolean;
    date: string;
    /**
     * The class's active shareholdings and what each held before the split: what the split
     * does is the reducer's, this is the record of what it started from (the OCF export issues
     * them with it).
     */
    before: { shareholdingId: string; quantity: string }[];
  };
  STOCK_LEGEND_TEMPLATE_CREATED: { legend: LegendRecord };
  STOCK_LEGEND_TEMPLATE_UPDATED: { legendId: string; changes: LegendChanges };
  STOCK_LEGEND_TEMPLATE_DELETED: { legendId: string };
  TX_STOCK_ISSUANCE: {
    shareholdingId: string;
    securityId: string;
    memberId: string;
    quantity: string;
    pricePerShare: string | null;
    issueDate: string;
    legendIds: string[];
    consideration: string | null;
  };
  TX_STOCK_TRANSFER: {
    sourceId: string;
    destinationId: string;
    toMemberId: string;
    quantity: string;
    date: string;
    pricePerShare: string | null;
  };
  TX_STOCK_CANCELLATION: { shareholdingId: string; quantity: string; reason: string };
  STOCK_ISSUANCE_AMENDED: { shareholdingId: string; changes: IssuanceAmendment };
  VALUATION_RECORDED: { valuation: ValuationRecord };
  VALUATION_AMENDED: { valuationId: string; changes: ValuationChanges };
  CAPITAL_CHANGE_RECORDED: { capitalChange: CapitalChangeRecord };
  CAPITAL_CHANGE_AMENDED: { capitalChangeId: string; changes: CapitalChangeChanges };
}

/** One entry of the log, as the reducer reads it. */
export type LedgerTransaction = {
  [T in TransactionType]: {
    id: string;
    type: T;
    effectiveDate: string;
    payload: TransactionPayloads[T];
  };
}[TransactionType];
