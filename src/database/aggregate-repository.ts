import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type {
  DeepPartial,
  EntityManager,
  FindOptionsWhere,
  ObjectLiteral,
  Repository,
} from 'typeorm';
import { statementSent } from './statement-observers';

/** A transaction as repositories see it (the UnitOfWork's `Tx` satisfies it). */
export interface InTransaction {
  readonly manager: EntityManager;
}

/**
 * Base of the per-aggregate repositories: each method runs on the given transaction, or on its
 * own connection when there is none. Services never hold a DataSource or an EntityManager.
 * Subclasses add the queries of their aggregate; the common ones are here.
 */
export abstract class AggregateRepository<T extends ObjectLiteral & { id: string }> {
  constructor(protected readonly repository: Repository<T>) {}

  protected repo(tx?: InTransaction): Repository<T> {
    return tx ? tx.manager.getRepository(this.repository.target) : this.repository;
  }

  /**
   * Runs a hot read as a named prepared statement on the connection pool: PostgreSQL parses and
   * plans it once per connection, and the client sends only its name and parameters.
   */
  protected async prepared<R>(text: string, values: unknown[]): Promise<R[]> {
    const pool = (this.repository.manager.connection.driver as unknown as { master: Pool }).master;
    const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementSent(text);
    const result = await pool.query({ name, text, values });
    return result.rows as R[];
  }

  /** Inserts a new row made of `fields` and returns it (defaults and generated ids filled in). */
  add(fields: DeepPartial<T>, tx?: InTransaction): Promise<T> {
    const repo = this.repo(tx);
    return repo.save(repo.create(fields));
  }

  save(entity: T, tx?: InTransaction): Promise<T> {
    return this.repo(tx).save(entity);
  }

  findById(id: string, tx?: InTransaction): Promise<T | null> {
    return this.repo(tx).findOneBy({ id } as FindOptionsWhere<T>);
  }

  /** The row, locked until the transaction ends: decisions about it serialise on it. */
  lockById(id: string, tx: InTransaction): Promise<T | null> {
    return this.repo(tx).findOne({
      where: { id } as FindOptionsWhere<T>,
      lock: { mode: 'pessimistic_write' },
    });
  }
}
