import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ON_DOMAIN_EVENT, queueOf } from './on-domain-event';
import { ProcessedEvent } from './processed-event.entity';
import { QueueName } from './queues';

/**
 * Which event queues have a consumer in this process (the relay relays only the event types whose
 * every route is one of those, and leaves the others pending for an instance that consumes them):
 * the `@OnDomainEvent` classes this process composed, found at start-up. And the processed
 * markers: every consumer leaves one per event it was handed, named after its queue, which is how
 * the re-relay tells a queue that consumed an event from one whose job was lost with Redis.
 */
@Injectable()
export class EventConsumers implements OnModuleInit {
  private active = new Set<string>();

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

  has(queue: QueueName | string) {
    return this.active.has(queue);
  }

  /** The queues consumed here. */
  queues(): string[] {
    return [...this.active].sort();
  }

  /**
   * Runs `work` once per (queue's consumer, event): the processed marker is written in the same
   * transaction as the work, so a redelivered job is a no-op and a failed one is retried.
   * Returns false when the event had been handled already.
   */
  once(
    consumer: QueueName | string,
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

  /**
   * The marker of an event a consumer was handed but had nothing to do for, or did its work for
   * outside `once` (chat: its calls to the server must not hold a transaction open): written
   * after the work, so a job lost before it is relayed again.
   */
  async mark(consumer: QueueName | string, eventId: string): Promise<void> {
    await this.processed
      .createQueryBuilder()
      .insert()
      .into(ProcessedEvent)
      .values({ consumer, eventId })
      .orIgnore()
      .execute();
  }
}
