import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ProcessedEvent } from './processed-event.entity';
import { QueueName } from './queues';

/**
 * Which event queues have a consumer in this process (the relay feeds only those, and keeps other
 * events pending), and the idempotency wrapper every consumer runs its work in.
 */
@Injectable()
export class EventConsumers {
  private readonly active = new Set<QueueName>();

  constructor(
    @InjectRepository(ProcessedEvent) private readonly processed: Repository<ProcessedEvent>,
  ) {}

  register(queue: QueueName) {
    this.active.add(queue);
  }

  has(queue: QueueName) {
    return this.active.has(queue);
  }

  /**
   * Runs `work` once per (consumer, event): the processed marker is written in the same
   * transaction as the work, so a redelivered job is a no-op and a failed one is retried.
   * Returns false when the event had been handled already.
   */
  once(
    consumer: string,
    eventId: string,
    work: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.processed.manager.transaction(async (manager) => {
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(ProcessedEvent)
        .values({ consumer, eventId })
        .orIgnore()
        .returning(['event_id'])
        .execute();
      if (!inserted.raw.length) return false;
      await work(manager);
      return true;
    });
  }
}
