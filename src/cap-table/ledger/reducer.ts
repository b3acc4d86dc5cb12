import { LedgerRuleError, LedgerState, emptyState } from './ledger-state';
import { assertPayload } from './payload-check';
import type { LedgerTransaction, TransactionType } from './transaction-types';
import { definitionOf, TRANSACTIONS } from './transactions';

/**
 * Applies one transaction to the state, in place: its payload must be its type's schema's
 * (MalformedEntryError, strict or not), its definition validates it against the state
 * (`strict`, the default), then applies it. The write path runs every change through here before
 * persisting it, and a replay of the log runs the same code: the tables can only hold what a
 * replay produces. An as-of replay of history recorded out of date order reads it leniently.
 */
export function applyTransaction(state: LedgerState, tx: LedgerTransaction, strict = true): void {
  const definition = definitionOf(tx.type);
  if (!definition)
    throw new LedgerRuleError('invalid', `unknown transaction type ${String(tx.type)}`);
  const payload = (definition.upgrade?.(tx.payload as never) ?? tx.payload) as never;
  assertPayload(tx, payload);
  if (strict) definition.validate(state, payload, tx.effectiveDate);
  definition.apply(state, payload, strict);
}

/** A full replay: the log in order, from nothing. */
export function replay(transactions: Iterable<LedgerTransaction>, strict = true): LedgerState {
  const state = emptyState();
  for (const tx of transactions) applyTransaction(state, tx, strict);
  return state;
}

/** The types that define a record (classes, legends, vesting terms, plans and pools): they hold for all of history, whenever they were recorded. */
export const DEFINITIONS: ReadonlySet<TransactionType> = new Set(
  (Object.keys(TRANSACTIONS) as TransactionType[]).filter((t) => TRANSACTIONS[t].definesRecord),
);
