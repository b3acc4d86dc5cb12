import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryRunner } from 'typeorm';
import { DomainError } from '../../common';

/**
 * The advisory lock key of an organization's imports (`$1`: the organization id): a 64-bit hash,
 * in the one-key space (the registration and data-room locks are 32-bit hashes there: a clash
 * would need this hash to fall among them).
 */
export const IMPORT_LOCK_KEY = "hashtextextended('ledgerline:import:' || $1, 0)";

/**
 * One import (CSV or OCF, dry runs too: they parse and replay as much) per organization at a time,
 * across every process of the service: a PostgreSQL session advisory lock, tried (never waited
 * for) on a connection of its own, held from before the upload is parsed until the import ends,
 * fails or is abandoned by its client (the work still runs to its end, then lets go). Should the
 * process die, its connection closes and the lock goes with it. The import's own transaction runs
 * on another connection, so an import holds two while it writes.
 */
@Injectable()
export class ImportLock {
  private readonly logger = new Logger('ImportLock');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` holding the organization's import lock; 409 `importInProgress` if another holds it. */
  async run<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let taken = false;
    try {
      const [row] = (await runner.query(`SELECT pg_try_advisory_lock(${IMPORT_LOCK_KEY}) AS ok`, [
        organizationId,
      ])) as { ok: boolean }[];
      taken = row.ok;
    } catch (err) {
      await runner.release();
      throw err;
    }
    if (!taken) {
      await runner.release();
      throw DomainError.keyed(
        'importInProgress',
        'another import into this organization is running; try again when it has finished',
      );
    }
    try {
      return await work();
    } finally {
      await this.unlock(runner, organizationId);
    }
  }

  /**
   * Lets go of the lock. If that fails the connection is closed rather than handed back to the
   * pool: a pooled connection still holding the lock would refuse every later import.
   */
  private async unlock(runner: QueryRunner, organizationId: string) {
    try {
      await runner.query(`SELECT pg_advisory_unlock(${IMPORT_LOCK_KEY})`, [organizationId]);
      await runner.release();
    } catch (err) {
      this.logger.error(`import lock of ${organizationId}: ${(err as Error).message}`);
      await (
        runner as QueryRunner & { releasePostgresConnection(err: Error): Promise<void> }
      ).releasePostgresConnection(err as Error);
    }
  }
}
