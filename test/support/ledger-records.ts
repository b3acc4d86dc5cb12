import type {
  LedgerTransaction,
  SecurityRecord,
} from '../../src/cap-table/ledger/transaction-types';

/** Records and transactions for the ledger reducer's unit tests (no database). */

let n = 0;
export const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

export const tx = <T extends LedgerTransaction['type']>(
  type: T,
  payload: Extract<LedgerTransaction, { type: T }>['payload'],
  effectiveDate = '2024-01-01',
) => ({ id: id(), type, effectiveDate, payload }) as LedgerTransaction;

export const securityRecord = (fields: Partial<SecurityRecord> = {}): SecurityRecord => ({
  id: id(),
  name: 'Common',
  classType: 'common',
  idPrefix: 'CS-',
  authorizedShares: '1000',
  parValue: null,
  originalIssuePrice: null,
  currency: 'USD',
  seniority: 1,
  liquidationPreferenceMultiple: null,
  participating: false,
  participationCapMultiple: null,
  conversionRatio: '1',
  votesPerShare: '1',
  boardApprovalDate: null,
  ...fields,
});

export const classCreated = (s: SecurityRecord) => tx('STOCK_CLASS_CREATED', { security: s });

/** A TX_STOCK_ISSUANCE of a new shareholding, effective on its issue date. */
export const stockIssuance = (
  securityId: string,
  quantity: string,
  memberId = 'm1',
  date = '2024-01-01',
) => {
  const shareholdingId = id();
  return {
    shareholdingId,
    tx: tx(
      'TX_STOCK_ISSUANCE',
      {
        shareholdingId,
        securityId,
        memberId,
        quantity,
        pricePerShare: null,
        issueDate: date,
        legendIds: [],
        consideration: null,
      },
      date,
    ),
  };
};
