import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ON_DOMAIN_EVENT, queueOf } from './on-domain-event';
import { ProcessedEvent } from './processed-event.entity';
import { QueueName } from './queues';

/**
 * Which event queues have a consumer in this process (the relay feeds only those, and keeps other
 * events pending): the `@OnDomainEvent` classes this process composed, found at start-up. And the
 * idempotency wrapper every consumer runs its work in.
 */
@Injectable()
export class EventConsumers implements OnModuleInit {
  private active = new Set<QueueName>();

  constructor(
    @InjectRepository(ProcessedEvent) private readonly processed: Repository<ProcessedEvent>,
    private readonly discovery: DiscoveryService,
  ) {}

  /** Every provider is made by now: the consumers this process composed are found. */
  onModuleInit() {
    this.active = new Set(
      this.discovery.getProviders().flatMap((wrapper) => {
        const type = wrapper.metatype as object | undefined;
        if (!wrapper.instance || !type || !Reflect.getMetadata(ON_DOMAIN_EVENT, type)) return [];
        const name = queueOf(type);
        return name ? [name] : [];
      }),
    );
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
