import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { DomainEvent, OutboxService } from './outbox.service';
import { bumpResourceVersions, resourceOf } from './resource-versions';

/**
 * One database transaction of a service method. Repositories do their reads and writes through
 * `manager`; `record` writes the method's domain events as outbox rows in the same transaction,
 * so an event exists exactly when its change was committed.
 */
export interface Tx {
  readonly manager: EntityManager;
  record(...events: DomainEvent[]): Promise<void>;
}

/**
 * The one way services open a transaction (rule 4 of the architecture: one write, one
 * transaction). Every event recorded also bumps the version of its resource for its organization,
 * at the end of the transaction: cached reads can never outlive the change.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  run<T>(work: (tx: Tx) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const body = async (manager: EntityManager) => {
      const touched = new Set<string>();
      const result = await work({
        manager,
        record: async (...events) => {
          for (const e of events) {
            if (e.organizationId) touched.add(`${e.organizationId}|${resourceOf(e.type)}`);
          }
          await this.outbox.record(manager, ...events);
        },
      });
      await bumpResourceVersions(manager, touched);
      return result;
    };
    return isolation
      ? this.dataSource.transaction(isolation, body)
      : this.dataSource.transaction(body);
  }
}
