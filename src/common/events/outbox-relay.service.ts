import { getQueueToken } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { DataSource, IsNull } from 'typeorm';
import { Env } from '../../config/env.schema';
import { EventConsumers } from './event-consumers';
import { EventEnvelope } from './event-envelope';
import { OutboxEvent } from './outbox-event.entity';
import { EVENT_ROUTES, QueueName } from './queues';

const BATCH = 200;

export const toEnvelope = (e: OutboxEvent): EventEnvelope => ({
  id: e.id,
  type: e.type,
  api_version: e.apiVersion,
  created: e.created.toISOString(),
  organization: e.organizationId,
  actor: e.actorUserId,
  data: e.data,
});

/**
 * Moves committed outbox rows into the Bull queues that subscribe to them. A job's id is the
 * event id, so a relay that dies between enqueueing and marking enqueues nothing new on retry
 * while the job is kept; consumers are idempotent for the rest.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly env: Env,
    private readonly consumers: EventConsumers,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap() {
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
      const moved = await this.relayBatch();
      total += moved;
      if (moved < BATCH || this.stopped) return total;
    }
  }

  private relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const events = await manager.find(OutboxEvent, {
        where: { relayedAt: IsNull() },
        order: { sequence: 'ASC' },
        take: BATCH,
        lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
      });
      if (!events.length) return 0;
      for (const event of events) {
        const envelope = toEnvelope(event);
        for (const queue of this.queuesFor(event.type)) {
          await queue.add(envelope, { jobId: event.id });
        }
      }
      await manager.update(
        OutboxEvent,
        events.map((e) => e.id),
        { relayedAt: () => 'now()' },
      );
      return events.length;
    });
  }

  private queuesFor(type: string): Queue[] {
    return (Object.entries(EVENT_ROUTES) as [QueueName, (t: string) => boolean][])
      .filter(([name, wants]) => this.consumers.has(name) && wants(type))
      .map(([name]) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
  }
}
