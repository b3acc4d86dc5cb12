import { getQueueToken } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { IsNull, Not, Repository } from 'typeorm';
import { Env } from '../config';
import { EventConsumers } from './event-consumers';
import { EventEnvelope } from './event-envelope';
import { OutboxEvent } from './outbox-event.entity';
import { queuesFor } from './on-domain-event';
import { QueueName } from './queues';

const BATCH = 200;

export const toEnvelope = (e: OutboxEvent): EventEnvelope => ({
  id: e.id,
  type: e.type,
  api_version: e.apiVersion,
  created: e.created.toISOString(),
  organization: e.organizationId,
  actor: e.actorUserId,
  description: e.description,
  subjects: e.subjectMemberIds ?? [],
  data: e.data,
});

/**
 * Moves committed outbox rows into the Bull queues that subscribe to them. A job's id is the
 * event id, so a relay that dies between enqueueing and marking enqueues nothing new on retry
 * while the job is kept; consumers are idempotent for the rest.
 *
 * An event is marked relayed only once every queue that wants it has a consumer in this process.
 * Otherwise it is marked unrouted and stays pending (logged, counted by `/health`); at the next
 * start, when the missing consumer may exist, unrouted events are tried again.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    @InjectRepository(OutboxEvent) private readonly events: Repository<OutboxEvent>,
    private readonly env: Env,
    private readonly consumers: EventConsumers,
    private readonly moduleRef: ModuleRef,
  ) {}

  async onApplicationBootstrap() {
    await this.events.update(
      { unroutedAt: Not(IsNull()), relayedAt: IsNull() },
      { unroutedAt: null },
    );
    if (this.env.OUTBOX_RELAY_INTERVAL_MS > 0) this.schedule();
  }

  async onModuleDestroy() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Relays everything pending now; returns how many events were handed over. */
  async relayPending(): Promise<number> {
    this.running ??= this.relayBatches().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Events waiting for a consumer this process does not run. */
  countUnrouted(): Promise<number> {
    return this.events.count({ where: { unroutedAt: Not(IsNull()), relayedAt: IsNull() } });
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      try {
        await this.relayPending();
      } catch (err) {
        this.logger.warn(`Outbox relay failed, will retry: ${(err as Error).message}`);
      }
      this.schedule();
    }, this.env.OUTBOX_RELAY_INTERVAL_MS);
  }

  private async relayBatches(): Promise<number> {
    let total = 0;
    for (;;) {
      const { seen, relayed } = await this.relayBatch();
      total += relayed;
      if (seen < BATCH || this.stopped) return total;
    }
  }

  private relayBatch(): Promise<{ seen: number; relayed: number }> {
    return this.events.manager.transaction(async (manager) => {
      const events = await manager.find(OutboxEvent, {
        where: { relayedAt: IsNull(), unroutedAt: IsNull() },
        order: { sequence: 'ASC' },
        take: BATCH,
        lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
      });
      const relayed: string[] = [];
      const unrouted: string[] = [];
      for (const event of events) {
        const targets = this.targetsOf(event.type);
        if (!targets.length || targets.some((q) => !this.consumers.has(q))) {
          unrouted.push(event.id);
          continue;
        }
        const envelope = toEnvelope(event);
        for (const queue of targets) await this.queue(queue).add(envelope, { jobId: event.id });
        relayed.push(event.id);
      }
      if (relayed.length) await manager.update(OutboxEvent, relayed, { relayedAt: () => 'now()' });
      if (unrouted.length) {
        await manager.update(OutboxEvent, unrouted, { unroutedAt: () => 'now()' });
        this.logger.warn(
          `${unrouted.length} event(s) have no consumer in this process and stay pending ` +
            `(${[...new Set(events.filter((e) => unrouted.includes(e.id)).map((e) => e.type))].join(', ')})`,
        );
      }
      return { seen: events.length, relayed: relayed.length };
    });
  }

  /** The queues whose consumers declare the type (`@OnDomainEvent`). */
  private targetsOf(type: string): QueueName[] {
    return queuesFor(type);
  }

  private queue(name: QueueName): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
  }
}
