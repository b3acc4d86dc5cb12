import type { InTransaction } from './aggregate-repository';

/**
 * How long one statement may run (PostgreSQL's statement_timeout, in ms): `statement` on every
 * connection of a pool, `long` where `allowLongStatements` raises it.
 */
export interface StatementLimits {
  statement: number;
  long: number;
}

/**
 * A setting of our own on each connection, holding its long limit: raising the limit then needs
 * nothing but the transaction, whichever module opened it.
 */
export const LONG_STATEMENT_TIMEOUT_SETTING = 'ledgerline.long_statement_timeout';

/**
 * The pg connection parameters that set both limits on every connection of a pool. (An `options`
 * parameter in DATABASE_URL would replace these options, and with them the long limit: imports
 * would then stop at the request limit. Other server settings belong in ALTER ROLE ... SET.)
 */
export function statementLimitParameters(limits: StatementLimits) {
  return {
    statement_timeout: limits.statement,
    options: `-c ${LONG_STATEMENT_TIMEOUT_SETTING}=${limits.long}`,
  };
}

/**
 * Raises the statement limit to the long one (DATABASE_LONG_STATEMENT_TIMEOUT_MS) until the end
 * of this transaction, as `SET LOCAL` does: for imports and exports, whose statements over a
 * whole cap table may outlast the limit of a request. The next user of the connection has the
 * request limit again. Call it first in the transaction. A connection without a long limit
 * (migrations) keeps its own.
 */
export async function allowLongStatements(tx: InTransaction): Promise<void> {
  await tx.manager.query(
    `SELECT set_config('statement_timeout', coalesce(
       current_setting('${LONG_STATEMENT_TIMEOUT_SETTING}', true),
       current_setting('statement_timeout')), true)`,
  );
}
