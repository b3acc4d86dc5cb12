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
 * The one lenient replay of the log as of a date, one entry at a time in recording order: the
 * oracle of the moves (`replayAsOf`, read whole) and the OCF export's stream (each entry mapped
 * with the records as they stood just before it, a cap table of 100,000 shareholdings streaming
 * through without them: `shareholdings: false`). `asOf` undefined: the whole log. Read leniently:
 * an entry about a record that did not exist yet (as of the date) is passed over; without
 * shareholdings, so is any entry whose rule needs them.
 */
export class AsOfReplay {
  readonly state: LedgerState = emptyState();

  constructor(
    private readonly asOf: string | undefined,
    private readonly options: { shareholdings: boolean } = { shareholdings: true },
  ) {}

  /** Whether the entry belongs to the cap table as of the date (see `includedAsOf`). */
  includes(entry: { type: TransactionType; effectiveDate: string }, facts: AsOfFacts = {}) {
    return this.asOf === undefined || includedAsOf(entry, this.asOf, facts);
  }

  /** Applies an entry that `includes` admitted. */
  apply(tx: LedgerTransaction): void {
    try {
      applyTransaction(this.state, tx, false);
    } catch (err) {
      const passedOver =
        err instanceof LedgerRuleError && (!this.options.shareholdings || err.rule === 'notFound');
      if (!passedOver) throw err;
    }
    if (!this.options.shareholdings) {
      this.state.shareholdings.clear();
      this.state.blocks.clear();
    }
    this.state.takeChanges();
  }
}

/** The cap table as it stood on `asOf`: the whole log through the one lenient replay. */
export function replayAsOf(transactions: Iterable<LedgerTransaction>, asOf: string): LedgerState {
  const log = [...transactions];
  const issueDates = correctedIssueDates(log);
  const replay = new AsOfReplay(asOf);
  for (const tx of log) {
    const facts: AsOfFacts =
      tx.type === 'TX_STOCK_ISSUANCE'
        ? { issueDate: issueDates.get(tx.payload.shareholdingId) }
        : tx.type === 'STOCK_ISSUANCE_AMENDED'
          ? { amendsIncluded: replay.state.shareholdings.has(tx.payload.shareholdingId) }
          : {};
    if (replay.includes(tx, facts)) replay.apply(tx);
  }
  return replay.state;
}
