import type { DataSource } from 'typeorm';
import { ownedSql } from '../database';
import type { RetentionOptions } from './schedule.decorators';

const DEFAULT_BATCH = 1000;
const DEFAULT_BATCHES_PER_RUN = 100;
const NAME = /^[a-z_][a-z0-9_]*$/;
const KEY = /^(?:[a-z_][a-z0-9_]*|\(\s*[a-z_][a-z0-9_]*(?:\s*,\s*[a-z_][a-z0-9_]*)*\s*\))$/;

/** Refuses, at start-up, a retention whose table or key is not a plain name (it is spliced in). */
export function checkRetention(spec: RetentionOptions): void {
  if (!NAME.test(spec.table)) throw new Error(`retention ${spec.name}: bad table ${spec.table}`);
  if (spec.key !== undefined && !KEY.test(spec.key)) {
    throw new Error(`retention ${spec.name}: bad key ${spec.key}`);
  }
  for (const [what, n] of [
    ['batch', spec.batch],
    ['batchesPerRun', spec.batchesPerRun],
  ] as const) {
    if (n !== undefined && !(Number.isInteger(n) && n > 0)) {
      throw new Error(`retention ${spec.name}: ${what} must be a positive integer`);
    }
  }
}

/**
 * Deletes the rows of the retention's table older than `cutoff` (and matching its `where`) in
 * bounded batches; answers how many. Rows a writer holds are skipped, never waited for: the next
 * run takes them.
 */
export async function deleteOlderRows(
  dataSource: DataSource,
  spec: RetentionOptions,
  cutoff: Date,
): Promise<number> {
  const key = spec.key ?? 'id';
  // A row value compares with the subquery's columns: `(a, b) IN (SELECT a, b ...)`.
  const columns = key.replace(/^\(|\)$/g, '');
  const where = spec.where ? ` AND (${spec.where})` : '';
  // The retention's module's statement, run by the scheduler on its behalf.
  const sql = ownedSql(
    spec.owner,
    `DELETE FROM ${spec.table} WHERE ${key} IN (` +
      `SELECT ${columns} FROM ${spec.table} WHERE ${spec.age} < $2${where} ` +
      `LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  );
  const batch = spec.batch ?? DEFAULT_BATCH;
  let total = 0;
  for (let i = 0; i < (spec.batchesPerRun ?? DEFAULT_BATCHES_PER_RUN); i++) {
    const [, deleted] = (await dataSource.query(sql, [batch, cutoff])) as [unknown, number];
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
