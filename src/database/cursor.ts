import type { InTransaction } from './aggregate-repository';

/** Rows fetched per round trip of a cursor. */
export const CURSOR_BATCH = 1000;

let cursors = 0;

/**
 * The rows of a query, `CURSOR_BATCH` at a time, through a server-side cursor of the transaction
 * (a cursor lives in it: `tx` must be a transaction of its own connection, as an export's
 * read-only snapshot is). Long reads stay in constant memory, and modules reading the same
 * snapshot each run their own queries in it.
 */
export async function* inBatches<T>(
  tx: InTransaction,
  sql: string,
  params: unknown[],
): AsyncGenerator<T[]> {
  const name = `cursor_${++cursors}`;
  await tx.manager.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
  try {
    for (;;) {
      const batch = (await tx.manager.query(`FETCH ${CURSOR_BATCH} FROM ${name}`)) as T[];
      if (batch.length) yield batch;
      if (batch.length < CURSOR_BATCH) break;
    }
  } finally {
    if (!tx.manager.queryRunner?.isReleased) await tx.manager.query(`CLOSE ${name}`);
  }
}
