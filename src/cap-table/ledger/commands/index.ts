import type { LedgerCommand } from '../command';
import { replaceSecurity } from './replace-security';

/**
 * The ledger's commands of several transactions (a command of one is its transaction's
 * definition's): their events and routes are derived from here as from the definitions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: readonly LedgerCommand<any>[] = [replaceSecurity];
