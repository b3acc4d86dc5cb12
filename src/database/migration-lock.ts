import type { DataSource } from 'typeorm';

/**
 * The advisory lock key of migrations: an arbitrary number, fixed for good (every version of the
 * service must take the same lock).
 */
export const MIGRATION_LOCK_KEY = 4_127_390_513;

/**
 * Runs `work` while this process holds the migrations' session-level advisory lock, taken on one
 * connection of `dataSource` kept aside for it: instances that start together wait here in turn
 * rather than apply the same migration twice (a second CREATE TABLE fails its start; a second
 * INSERT of a data migration would stay). The lock is released however `work` ends, and by
 * PostgreSQL itself if the process dies holding it (its session ends).
 */
export async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>) {
  const holder = dataSource.createQueryRunner();
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await holder.release();
  }
}
