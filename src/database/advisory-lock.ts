import type { EntityManager } from 'typeorm';

/**
 * A PostgreSQL advisory lock on `key` (a 64-bit hash of it) until the transaction of `manager`
 * ends: serializes work that takes no row lock (calls to another system, rows not yet made).
 */
export async function lockUntilCommit(manager: EntityManager, key: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
}
