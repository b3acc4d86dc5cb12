import { emptyState, LedgerRuleError, LedgerState } from '../ledger/ledger-state';
import { applyTransaction, DEFINITIONS } from '../ledger/reducer';
import type { LedgerTransaction, TransactionType } from '../ledger/transaction-types';

export { DEFINITIONS } from '../ledger/reducer';

/**
 * Which entries of the log make the cap table as of a date: the one rule of the ledger's moves
 * (`ledger/moves/moves.ts` dates them by it), of the lenient replay (`ledger:verify`'s oracle,
 * and the position of a date the moves do not serve) and of the OCF export, which streams the log.
 */

export interface AsOfFacts {
  /** An issuance: its holding's issue date as last corrected (it counts from that date). */
  issueDate?: string;
  /** A correction of an issuance: whether that issuance belongs to the date. */
  amendsIncluded?: boolean;
}

/**
 * Whether a log entry belongs to the cap table as of `asOf`: definitions always; an issuance
 * from its corrected issue date (a later correction of the date moves it); a correction of an
 * issuance that belongs (a correction says what should have been); anything else from its
 * effective date.
 */
export function includedAsOf(
  entry: { type: TransactionType; effectiveDate: string },
  asOf: string,
  facts: AsOfFacts = {},
): boolean {
  if (DEFINITIONS.has(entry.type)) return true;
  if (entry.type === 'STOCK_ISSUANCE_AMENDED' && facts.amendsIncluded) return true;
  const from =
    entry.type === 'TX_STOCK_ISSUANCE'
      ? (facts.issueDate ?? entry.effectiveDate)
      : entry.effectiveDate;
  return from <= asOf;
}

/**
 * The date a log entry `t` counts from, in SQL, with `sh` the shareholding joined on issuances
 * only (the rule above, for queries that select entries of a date).
 */
export const countsFromSql = (t: string, sh: string) =>
  `coalesce(${sh}.issue_date, ${t}.effective_date)`;

/** The last issue date each corrected holding was given. */
function correctedIssueDates(log: LedgerTransaction[]): Map<string, string> {
  const dates = new Map<string, string>();
  for (const tx of log) {
    if (tx.type === 'STOCK_ISSUANCE_AMENDED' && tx.payload.changes.issueDate)
      dates.set(tx.payload.shareholdingId, tx.payload.changes.issueDate);
  }
  return dates;
}

/**
 * The cap table as it stood on `asOf`: the log in recording order, keeping the entries
 * `includedAsOf` keeps. Read leniently: an entry about a record that did not exist yet is
 * passed over.
 */
export function replayAsOf(transactions: Iterable<LedgerTransaction>, asOf: string): LedgerState {
  const log = [...transactions];
  const issueDates = correctedIssueDates(log);
  const state = emptyState();
  for (const tx of log) {
    const facts: AsOfFacts =
      tx.type === 'TX_STOCK_ISSUANCE'
        ? { issueDate: issueDates.get(tx.payload.shareholdingId) }
        : tx.type === 'STOCK_ISSUANCE_AMENDED'
          ? { amendsIncluded: state.shareholdings.has(tx.payload.shareholdingId) }
          : {};
    if (!includedAsOf(tx, asOf, facts)) continue;
    try {
      applyTransaction(state, tx, false);
    } catch (err) {
      if (!(err instanceof LedgerRuleError && err.rule === 'notFound')) throw err;
    }
  }
  return state;
}
