import { applyIncentiveTransaction } from './incentive-rules';
import { LedgerRuleError, LedgerState, emptyState } from './state';
import { applyStockTransaction } from './stock-rules';
import type { LedgerTransaction } from './transaction-types';

export * from './state';

/**
 * Applies one transaction to the state, in place. The write path runs every change through here
 * before persisting it, and a replay of the log runs the same code: the tables can only hold what
 * a replay produces. `strict` (the default) enforces the invariants; an as-of replay of history
 * recorded out of date order reads it leniently.
 */
export function applyTransaction(state: LedgerState, tx: LedgerTransaction, strict = true): void {
  if (!applyStockTransaction(state, tx, strict)) applyIncentiveTransaction(state, tx, strict);
}

/** A full replay: the log in order, from nothing. */
export function replay(transactions: Iterable<LedgerTransaction>, strict = true): LedgerState {
  const state = emptyState();
  for (const tx of transactions) applyTransaction(state, tx, strict);
  return state;
}

/** The last issue date each corrected holding was given. */
function correctedIssueDates(log: LedgerTransaction[]): Map<string, string> {
  const dates = new Map<string, string>();
  for (const tx of log) {
    if (tx.type === 'STOCK_ISSUANCE_AMENDED' && tx.payload.changes.issueDate)
      dates.set(tx.payload.shareholdingId, tx.payload.changes.issueDate);
  }
  return dates;
}

/** Definitions (classes, legends, vesting terms, plans and pools) hold for all of history, whenever they were recorded. */
export const DEFINITIONS: ReadonlySet<LedgerTransaction['type']> = new Set<
  LedgerTransaction['type']
>([
  'STOCK_CLASS_CREATED',
  'STOCK_CLASS_UPDATED',
  'STOCK_LEGEND_TEMPLATE_CREATED',
  'STOCK_LEGEND_TEMPLATE_UPDATED',
  'VESTING_TERMS_CREATED',
  // A plan recorded today may describe grants made long ago (records migrated in).
  'STOCK_PLAN_CREATED',
  'STOCK_PLAN_UPDATED',
  'STOCK_PLAN_POOL_CREATED',
]);

/**
 * The cap table as it stood on `asOf`: the log in recording order, keeping the transactions
 * effective on or before that date, plus the definitions of classes and legends, and corrections
 * of holdings that existed then (a correction says what should have been). An issuance counts
 * from its corrected issue date: a later correction of the date moves it. Read leniently: a
 * transaction about a record that did not exist yet is passed over.
 */
export function replayAsOf(transactions: Iterable<LedgerTransaction>, asOf: string): LedgerState {
  const log = [...transactions];
  const issueDates = correctedIssueDates(log);
  const state = emptyState();
  for (const tx of log) {
    const effective =
      tx.type === 'TX_STOCK_ISSUANCE'
        ? (issueDates.get(tx.payload.shareholdingId) ?? tx.effectiveDate)
        : tx.effectiveDate;
    const applies =
      effective <= asOf ||
      DEFINITIONS.has(tx.type) ||
      (tx.type === 'STOCK_ISSUANCE_AMENDED' && state.shareholdings.has(tx.payload.shareholdingId));
    if (!applies) continue;
    try {
      applyTransaction(state, tx, false);
    } catch (err) {
      if (!(err instanceof LedgerRuleError && err.rule === 'notFound')) throw err;
    }
  }
  return state;
}
