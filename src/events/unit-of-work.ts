import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { beforeCommitHooks } from '../common';
import { DomainEvent, OutboxService } from './outbox.service';

/**
 * One database transaction of a service method. Repositories do their reads and writes through
 * `manager`; `record` gives the method's domain events, written as outbox rows when the work is
 * done, in the same transaction, so an event exists exactly when its change was committed.
 */
export interface Tx {
  readonly manager: EntityManager;
  record(...events: DomainEvent[]): Promise<void>;
}

/**
 * The one way services open a transaction (rule 4 of the architecture: one write, one
 * transaction). The versions cached lists are keyed by are not this class's concern: the database
 * bumps the version of every table a transaction wrote, at its commit (migration TableVersions).
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  run<T>(work: (tx: Tx) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const body = async (manager: EntityManager) => {
      const recorded: DomainEvent[] = [];
      const result = await work({
        manager,
        // Kept until the work is done, then written in as few statements as the outbox can.
        record: async (...events) => {
          recorded.push(...events);
        },
      });
      await this.outbox.record(manager, ...recorded);
      // What the request around this work records with its writes (withBeforeCommit).
      for (const hook of beforeCommitHooks()) await hook(manager);
      return result;
    };
    return isolation
      ? this.dataSource.transaction(isolation, body)
      : this.dataSource.transaction(body);
  }
}
