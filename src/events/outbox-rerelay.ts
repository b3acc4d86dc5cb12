import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { EventsConfig } from '../config';
import { DAY, MINUTE, Scheduled } from '../scheduler';
import { EventConsumers } from './event-consumers';
import { OutboxEvent } from './outbox-event.entity';
import { OutboxRelay, toEnvelope } from './outbox-relay.service';

/** Events one run hands over again; the rest wait for the next run. */
const BATCH = 500;

/**
 * How far back a lost job is looked for. A Redis data loss is repaired within minutes of it by
 * this job; an older job still unconsumed is a failed one (kept by Bull a week, and re-adding it
 * is a no-op), and scanning a month of events every minute would cost more than it finds.
 */
const WITHIN_MS = DAY;

/**
 * Once per period across instances: the events relayed more than `OUTBOX_RERELAY_AFTER_MS` ago
 * (and less than a day) that lack the processed marker of a queue they route to are added to that
 * queue again, with the event id as the job id. While the job is still in Redis (waiting,
 * retrying, or kept completed) the add is a no-op; after a Redis data loss it re-creates the job,
 * and the consumer, idempotent by its marker, does the work the lost job would have.
 *
 * A route counts only for events relayed after it was migrated in. An event handed over again is
 * marked relayed now, so the next run looks at others first and comes back to it after the delay.
 */
@Injectable()
export class OutboxReRelay {
  private readonly logger = new Logger('OutboxReRelay');

  constructor(
    @InjectRepository(OutboxEvent) private readonly events: Repository<OutboxEvent>,
    private readonly consumers: EventConsumers,
    private readonly relay: OutboxRelay,
    private readonly env: EventsConfig,
  ) {}

  /** Hands over again the events a queue of this process has not consumed; answers how many. */
  @Scheduled({
    name: 'events:rerelay',
    every: (env) => Math.min(MINUTE, env.OUTBOX_RERELAY_AFTER_MS),
  })
  async rerelay(): Promise<number> {
    const missing: { id: string; queue: string }[] = await this.events.query(
      `SELECT e.id, r.queue
         FROM (SELECT id, type, relayed_at FROM outbox_event
                WHERE relayed_at < now() - make_interval(secs => $1::float8 / 1000)
                  AND created > now() - make_interval(secs => $2::float8 / 1000)) e
         JOIN event_route r ON r.event_type = e.type AND r.created < e.relayed_at
        WHERE r.queue = ANY($3)
          AND NOT EXISTS (SELECT 1 FROM processed_event p
                           WHERE p.consumer = r.queue AND p.event_id = e.id)
        ORDER BY e.relayed_at, e.id
        LIMIT $4`,
      [this.env.OUTBOX_RERELAY_AFTER_MS, WITHIN_MS, this.consumers.queues(), BATCH],
    );
    if (!missing.length) return 0;
    const ids = [...new Set(missing.map((m) => m.id))];
    const events = new Map(
      (await this.events.findBy({ id: In(ids) })).map((event) => [event.id, event]),
    );
    for (const { id, queue } of missing) {
      const event = events.get(id);
      if (event) await this.relay.queue(queue).add(toEnvelope(event), { jobId: id });
    }
    await this.events.update({ id: In(ids) }, { relayedAt: () => 'now()' });
    this.logger.log(`${ids.length} event(s) relayed again: a queue had not consumed them`);
    return ids.length;
  }
}
