import { getQueueToken } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { Repository } from 'typeorm';
import { Env } from '../config';
import { EventEnvelope } from './event-envelope';
import { EventRoutes, Routing } from './event-routes';
import { OutboxEvent } from './outbox-event.entity';

const BATCH = 200;

/** How long an event may wait before `/health` counts it as one this process cannot route. */
const UNROUTED_AFTER = '1 minute';

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
 * Moves committed outbox rows into the Bull queues of their type's routes (`event_route`, written
 * by the migrations). A job's id is the event id, so a relay that dies between enqueueing and
 * marking enqueues nothing new on retry while the job is kept; consumers are idempotent for the
 * rest.
 *
 * Each tick reads the routes and selects only the pending events of types whose every queue has
 * a consumer in this process; the others stay pending for an instance that consumes them (a newer
 * version's, during a rolling upgrade) and are looked at again every tick. `/health` counts those
 * waiting longer than a minute.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;
  /** The unroutable types last logged, so a change is logged once rather than every tick. */
  private logged = '';

  constructor(
    @InjectRepository(OutboxEvent) private readonly events: Repository<OutboxEvent>,
    private readonly env: Env,
    private readonly routes: EventRoutes,
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

  /** Relays everything pending now that this process can route; returns how many were handed over. */
  async relayPending(): Promise<number> {
    this.running ??= this.relayBatches().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Events pending for more than a minute whose type has a route this process does not consume. */
  async countUnrouted(): Promise<number> {
    const { unroutable } = await this.routes.read();
    if (!unroutable.length) return 0;
    return this.events
      .createQueryBuilder('e')
      .where('e.relayed_at IS NULL')
      .andWhere('e.type = ANY(:unroutable)', { unroutable })
      .andWhere(`e.created < now() - interval '${UNROUTED_AFTER}'`)
      .getCount();
  }

  /** The Bull queue named `name`, registered by this process. */
  queue(name: string): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
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
    const routing = await this.routes.read();
    this.logUnroutable(routing.unroutable);
    let total = 0;
    for (;;) {
      const seen = await this.relayBatch(routing);
      total += seen;
      if (seen < BATCH || this.stopped) return total;
    }
  }

  private relayBatch(routing: Routing): Promise<number> {
    return this.events.manager.transaction(async (manager) => {
      const query = manager
        .createQueryBuilder(OutboxEvent, 'e')
        .where('e.relayed_at IS NULL')
        .orderBy('e.sequence', 'ASC')
        .limit(BATCH)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked');
      if (routing.unroutable.length) {
        query.andWhere('NOT (e.type = ANY(:unroutable))', { unroutable: routing.unroutable });
      }
      const events = await query.getMany();
      for (const event of events) {
        const envelope = toEnvelope(event);
        for (const queue of routing.queuesOf(event.type)) {
          await this.queue(queue).add(envelope, { jobId: event.id });
        }
      }
      if (events.length) {
        await manager.update(
          OutboxEvent,
          events.map((e) => e.id),
          { relayedAt: () => 'now()' },
        );
      }
      return events.length;
    });
  }

  private logUnroutable(types: string[]) {
    const now = types.join(', ');
    if (now === this.logged) return;
    this.logged = now;
    if (types.length) {
      this.logger.warn(`Events of ${now} wait for an instance that consumes all their queues`);
    }
  }
}
