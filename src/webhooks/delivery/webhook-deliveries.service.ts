import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { randomBytes, randomUUID } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common';
import { PublicEvent, QueueName, UnitOfWork, WEBHOOK_DELIVERY } from '../../events';
import { deliveryHeaders } from '../signing';
import { WebhookEndpoint } from '../webhook-endpoint.entity';
import { WebhookSecrets } from '../webhook-secrets';
import { FAILING_DISABLE_AFTER_MS, LEASE_MS, nextAttemptAt, succeeded } from './delivery-schedule';
import { EndpointDisabler } from './endpoint-disabler';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { SendResult, WebhookSender } from './webhook-sender';

export const newDeliveryId = () => `whd_${randomBytes(16).toString('hex')}`;

/** The result of one attempt, as the test route answers it. */
export interface AttemptOutcome extends SendResult {
  deliveryId: string;
}

/**
 * Delivery of events to endpoints. Each (event, endpoint) is a row with its retry state; one
 * worker at a time holds an endpoint (a lease on its row) and sends its due deliveries oldest
 * event first, so an endpoint sees events in order as far as retries allow. An attempt is recorded
 * after its response: a worker that dies before that leaves the delivery due, and it is sent again
 * (at least once, never zero times).
 */
@Injectable()
export class WebhookDeliveries {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectQueue(QueueName.Webhooks) private readonly queue: Queue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    private readonly disabler: EndpointDisabler,
  ) {}

  /**
   * One delivery row per active endpoint of the event's organization subscribed to its type and
   * registered by the time of the event, in the caller's transaction. Answers the endpoints to wake once it commits.
   */
  async fanOut(manager: EntityManager, event: PublicEvent): Promise<string[]> {
    const endpoints = await manager
      .getRepository(WebhookEndpoint)
      .createQueryBuilder('w')
      .select('w.id', 'id')
      .where('w.organization_id = :organization AND w.active', { organization: event.organization })
      .andWhere(`(:type = ANY(w.events) OR '*' = ANY(w.events))`, { type: event.type })
      // An endpoint gets the events written since it was registered, not an older backlog.
      .andWhere('w.created <= :created', { created: event.created })
      .orderBy('w.created')
      .getRawMany<{ id: string }>();
    if (!endpoints.length) return [];
    const now = this.clock.now();
    await manager.insert(
      WebhookDelivery,
      endpoints.map(({ id }) => this.newDelivery(id, event, now)),
    );
    return endpoints.map(({ id }) => id);
  }

  /**
   * Whether the organization has an active endpoint now. None: the event has nowhere to go, and
   * an endpoint registered later gets no earlier event.
   */
  hasActiveEndpoint(organizationId: string): Promise<boolean> {
    return this.endpoints.exists({ where: { organizationId, active: true } });
  }

  /** A delivery of a stored event to one endpoint again, with the whole retry schedule. */
  async resend(endpoint: WebhookEndpoint, event: PublicEvent): Promise<string> {
    const delivery = this.newDelivery(endpoint.id, event, this.clock.now());
    await this.deliveries.insert(delivery);
    await this.wake(endpoint.id);
    return delivery.id;
  }

  /** One attempt of a test event, now, never retried and not counted in the endpoint's health. */
  async sendTest(endpoint: WebhookEndpoint, event: PublicEvent): Promise<AttemptOutcome> {
    const delivery = { ...this.newDelivery(endpoint.id, event, this.clock.now()), test: true };
    await this.deliveries.insert(delivery);
    const result = await this.attempt(endpoint, delivery as WebhookDelivery);
    return { deliveryId: delivery.id, ...result };
  }

  /** Asks for a drain of the endpoint at `at` (now by default); wake-ups of one second coalesce. */
  async wake(endpointId: string, at?: Date): Promise<void> {
    const now = this.clock.now().getTime();
    const due = Math.max(now, at?.getTime() ?? now);
    const second = Math.ceil(due / 1000);
    const { drain } = WEBHOOK_DELIVERY;
    await this.queue.add(
      drain.name,
      { endpointId },
      { ...drain.options, jobId: drain.jobId(endpointId, second), delay: second * 1000 - now },
    );
  }

  /**
   * Sends the endpoint's due deliveries while holding it. Another worker holding it will look
   * again for due deliveries after letting it go, so a drain that finds it held may just return.
   */
  async drain(endpointId: string): Promise<void> {
    for (;;) {
      const token = randomUUID();
      if (!(await this.claim(endpointId, token))) return;
      try {
        for (;;) {
          const endpoint = await this.endpoints.findOneBy({ id: endpointId, active: true });
          const next = endpoint && (await this.nextDue(endpointId));
          if (!endpoint || !next) break;
          await this.attempt(endpoint, next);
          if (!(await this.claim(endpointId, token))) return;
        }
      } finally {
        await this.release(endpointId, token);
      }
      if (!(await this.nextDue(endpointId))) return;
    }
  }

  /**
   * Endpoints with a delivery due for longer than `graceMs` and no live worker: those whose
   * wake-up was lost (Redis lost, a worker died holding them). At most `limit`.
   */
  async overdueEndpoints(graceMs: number, limit: number): Promise<string[]> {
    const now = this.clock.now();
    const rows = (await this.deliveries.query(
      `SELECT DISTINCT d.endpoint_id AS id
       FROM webhook_delivery d
       JOIN webhook_endpoint w ON w.id = d.endpoint_id
       WHERE d.status = 'pending' AND NOT d.test AND d.next_attempt_at <= $1
         AND w.active AND (w.lease_until IS NULL OR w.lease_until < $2)
       LIMIT $3`,
      [new Date(now.getTime() - graceMs), now, limit],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** The endpoints with a pending delivery of the event. */
  async pendingEndpointsOf(eventId: string): Promise<string[]> {
    const rows = await this.deliveries.find({
      select: { endpointId: true },
      where: { eventId, status: 'pending', test: false },
    });
    return [...new Set(rows.map((r) => r.endpointId))];
  }

  private newDelivery(endpointId: string, event: PublicEvent, now: Date) {
    return {
      id: newDeliveryId(),
      endpointId,
      organizationId: event.organization,
      eventId: event.id,
      eventType: event.type,
      eventCreated: new Date(event.created),
      body: JSON.stringify(wireEvent(event)),
      test: false,
      status: 'pending' as const,
      attempts: 0,
      nextAttemptAt: now,
      lastAttemptAt: null,
      lastHttpStatus: null,
    };
  }

  private async claim(endpointId: string, token: string): Promise<boolean> {
    const now = this.clock.now();
    const [, affected] = (await this.endpoints.query(
      `UPDATE webhook_endpoint SET lease_token = $2, lease_until = $3
       WHERE id = $1 AND active
         AND (lease_token = $2 OR lease_until IS NULL OR lease_until < $4)`,
      [endpointId, token, new Date(now.getTime() + LEASE_MS), now],
    )) as [unknown, number];
    return affected === 1;
  }

  private async release(endpointId: string, token: string) {
    await this.endpoints.query(
      `UPDATE webhook_endpoint SET lease_token = NULL, lease_until = NULL
       WHERE id = $1 AND lease_token = $2`,
      [endpointId, token],
    );
  }

  private nextDue(endpointId: string): Promise<WebhookDelivery | null> {
    return this.deliveries
      .createQueryBuilder('d')
      .where(`d.endpoint_id = :endpointId AND d.status = 'pending' AND NOT d.test`, { endpointId })
      .andWhere('d.next_attempt_at <= :now', { now: this.clock.now() })
      .orderBy('d.event_created')
      .addOrderBy('d.sequence')
      .limit(1)
      .getOne();
  }

  /** Signs, sends and records one attempt of the delivery. */
  private async attempt(endpoint: WebhookEndpoint, delivery: WebhookDelivery): Promise<SendResult> {
    const sentAt = this.clock.now();
    const headers = deliveryHeaders({
      eventId: delivery.eventId,
      body: delivery.body,
      timestamp: Math.floor(sentAt.getTime() / 1000),
      secrets: this.secrets.active(endpoint, sentAt),
    });
    const result = await this.sender.send(endpoint.url, headers, delivery.body);
    const next = await this.record(endpoint, delivery, sentAt, result);
    if (next) await this.wake(endpoint.id, next);
    return result;
  }

  /**
   * The attempt, the delivery's new state and the endpoint's health, in one transaction. Answers
   * when the next attempt is due, if any.
   */
  private async record(
    endpoint: WebhookEndpoint,
    delivery: WebhookDelivery,
    sentAt: Date,
    result: SendResult,
  ): Promise<Date | null> {
    const endedAt = this.clock.now();
    const { next, disable } = await this.uow.run(async (tx) => {
      const m = tx.manager;
      const current = await m.findOne(WebhookDelivery, {
        where: { id: delivery.id },
        lock: { mode: 'pessimistic_write' },
      });
      // Removed with its endpoint meanwhile, or recorded by a worker that outlived its lease.
      if (!current || current.status !== 'pending') return { next: null, disable: null };
      const attempt = current.attempts + 1;
      await m.insert(WebhookAttempt, {
        id: randomUUID(),
        deliveryId: current.id,
        endpointId: current.endpointId,
        eventId: current.eventId,
        eventType: current.eventType,
        attempt,
        timestamp: sentAt,
        httpStatus: result.httpStatus,
        responseTime: result.responseTime,
        responseBody: result.responseBody,
        error: result.error,
      });
      const ok = succeeded(result.httpStatus);
      const next =
        ok || current.test || result.httpStatus === 410 ? null : nextAttemptAt(attempt, endedAt);
      await m.update(WebhookDelivery, current.id, {
        attempts: attempt,
        status: ok ? 'succeeded' : next ? 'pending' : 'failed',
        nextAttemptAt: next,
        lastAttemptAt: sentAt,
        lastHttpStatus: result.httpStatus,
      });
      if (current.test) return { next: null, disable: null };
      const disable = await this.health(m, endpoint.id, ok, result.httpStatus, sentAt, endedAt);
      if (disable) await this.disabler.disable(tx, endpoint.id, disable, endedAt);
      return { next, disable };
    });
    if (disable) await this.disabler.notify(endpoint.id, disable);
    return next;
  }

  /**
   * The endpoint's failing streak after an attempt: a success ends it, a failure starts it or,
   * 3 days after it started, disables the endpoint; a 410 disables it at once.
   */
  private async health(
    m: EntityManager,
    endpointId: string,
    ok: boolean,
    httpStatus: number,
    sentAt: Date,
    endedAt: Date,
  ): Promise<'gone' | 'failing' | null> {
    if (ok) {
      await m.update(WebhookEndpoint, endpointId, { failingSince: null });
      return null;
    }
    if (httpStatus === 410) return 'gone';
    const rows = (await m.query(
      `UPDATE webhook_endpoint SET failing_since = COALESCE(failing_since, $2)
       WHERE id = $1 RETURNING failing_since`,
      [endpointId, sentAt],
    )) as [{ failing_since: Date }[], number];
    const since = rows[0][0]?.failing_since;
    return since && endedAt.getTime() - since.getTime() >= FAILING_DISABLE_AFTER_MS
      ? 'failing'
      : null;
  }
}

/** The envelope as delivered: without the actor, description and subjects the service keeps. */
export const wireEvent = (event: PublicEvent): PublicEvent => ({
  id: event.id,
  type: event.type,
  api_version: event.api_version,
  created: event.created,
  organization: event.organization,
  data: {
    object: event.data.object,
    previous_attributes: event.data.previous_attributes,
  },
});
