import type { LedgerCommand } from '../command';
import { createStockPlan } from './create-stock-plan';
import { replaceStockPlan } from './replace-stock-plan';
import { replaceVestingTerms } from './replace-vesting-terms';
import { replaceSecurity } from './replace-security';
import { holdingCancellation } from './holding-cancellation';
import { holdingCreation } from './holding-creation';

/**
 * The ledger's commands of several transactions (a command of one is its transaction's
 * definition's): their events and routes are derived from here as from the definitions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: readonly LedgerCommand<any>[] = [
  createStockPlan,
  replaceStockPlan,
  replaceVestingTerms,
  replaceSecurity,
  holdingCreation,
  holdingCancellation,
];
