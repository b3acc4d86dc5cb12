import { LedgerRuleError, LedgerState, emptyState } from './ledger-state';
import type { LedgerTransaction, TransactionType } from './transaction-types';
import { definitionOf, TRANSACTIONS } from './transactions';

/**
 * Applies one transaction to the state, in place: its definition validates it against the state
 * (`strict`, the default), then applies it. The write path runs every change through here before
 * persisting it, and a replay of the log runs the same code: the tables can only hold what a
 * replay produces. An as-of replay of history recorded out of date order reads it leniently.
 */
export function applyTransaction(state: LedgerState, tx: LedgerTransaction, strict = true): void {
  const definition = definitionOf(tx.type);
  if (!definition) throw new LedgerRuleError('invalid', `unknown transaction type ${String(tx.type)}`);
  const payload = (definition.upgrade?.(tx.payload as never) ?? tx.payload) as never;
  if (strict) definition.validate(state, payload, tx.effectiveDate);
  definition.apply(state, payload, strict);
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

/** The types that define a record (classes, legends, vesting terms, plans and pools): they hold for all of history, whenever they were recorded. */
export const DEFINITIONS: ReadonlySet<TransactionType> = new Set(
  (Object.keys(TRANSACTIONS) as TransactionType[]).filter((t) => TRANSACTIONS[t].definesRecord),
);

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
