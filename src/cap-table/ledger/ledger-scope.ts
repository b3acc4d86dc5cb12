import type { IncentiveScope } from './incentive-store';

/** Which records a write reads and locks before it changes the cap table. */
export interface LedgerScope extends IncentiveScope {
  securities?: string[];
  shareholdings?: string[];
  /** Legends named by the change: read-locked, so they cannot be deleted meanwhile. */
  legends?: string[];
  /** A legend about to be deleted, with the active holdings that carry it. */
  legendToDelete?: string;
  /** Every active shareholding of a class (a split), locked after the class. */
  holdingsOfClass?: string;
  valuations?: string[];
  capitalChanges?: string[];
}
