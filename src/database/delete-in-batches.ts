import type { DataSource } from 'typeorm';

/** Rows one statement deletes, and statements one run makes: a run stays short whatever piled up. */
const BATCH = 1000;
const BATCHES_PER_RUN = 100;

/**
 * Deletes the rows of `table` matching `where` (SQL over its columns, parameters from $2, given
 * in `params`; $1 is the batch size) in bounded batches, for retention clean-ups; answers how
 * many. The table is the calling module's own.
 */
export async function deleteInBatches(
  dataSource: DataSource,
  table: string,
  where: string,
  params: unknown[],
): Promise<number> {
  let total = 0;
  for (let i = 0; i < BATCHES_PER_RUN; i++) {
    const [, deleted] = (await dataSource.query(
      `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT $1)`,
      [BATCH, ...params],
    )) as [unknown, number];
    total += deleted;
    if (deleted < BATCH) break;
  }
  return total;
}
