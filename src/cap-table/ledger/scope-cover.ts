import type { LedgerScope } from './ledger-scope';

/** The scope keys that name a set of records by a rule (all holdings of a class ...), not by id. */
const SETS = ['holdingsOfClass', 'legendToDelete', 'scheduleToChange'] as const;

/**
 * Whether a change that loaded `loaded` may apply a transaction whose definition needs `needed`.
 * Records named by id need no check: the reducer sees only what the store loaded (and locked), so
 * a record outside the loaded scope is "not found", never read without its lock. A set named by a
 * rule is what must match: a split applied to the holdings of a class that were not all loaded
 * would leave some of them behind, silently.
 */
export function scopeCovers(loaded: LedgerScope, needed: LedgerScope): boolean {
  return SETS.every((key) => needed[key] === undefined || needed[key] === loaded[key]);
}
