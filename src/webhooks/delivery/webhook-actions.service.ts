import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type Redis from 'ioredis';
import { Clock, DomainError, RateLimiter } from '../../common';
import { RedisConnections } from '../../redis';
import { API_VERSION, EventLog, EventReader, newEventId, PublicEventType } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import { WebhookEndpointsService } from '../webhook-endpoints.service';
import { succeeded } from './delivery-schedule';
import { AttemptView, ResendView, TestDeliveryView } from './webhook-actions.view';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDeliveries } from './webhook-deliveries.service';

/**
 * Test events and resends an organization may ask for per minute: each is a request to an outside
 * server (a test one waits for it), so a loop of them is cut short.
 */
export const SEND_LIMIT = { limit: 30, windowMs: 60_000 };

/** The routes that act on one endpoint's deliveries: test, resend, history. */
@Injectable()
export class WebhookActions implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly limiter: RateLimiter;

  constructor(
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveries,
    private readonly events: EventLog,
    private readonly directory: OrganizationsDirectory,
    private readonly clock: Clock,
    connections: RedisConnections,
  ) {
    this.redis = connections.session();
    this.limiter = new RateLimiter(
      this.redis,
      `${connections.prefix}webhook-sends:`,
      SEND_LIMIT,
      clock,
    );
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /**
   * One attempt, now, of an event of `type` carrying the organization as its GET route answers
   * it. Not stored in the event list, not retried, and it neither disables nor heals the endpoint.
   */
  async test(organizationId: string, id: string, type: PublicEventType): Promise<TestDeliveryView> {
    const endpoint = await this.endpoints.find(organizationId, id);
    await this.limiter.consume(organizationId);
    const organization = await this.directory.organizationView(organizationId);
    if (!organization) throw DomainError.notFound();
    const event = {
      id: newEventId(),
      type,
      api_version: API_VERSION,
      created: this.clock.now().toISOString(),
      organization: organizationId,
      data: { object: { ...organization }, previous_attributes: {} },
    };
    const outcome = await this.deliveries.sendTest(endpoint, event);
    return {
      success: succeeded(outcome.httpStatus),
      deliveryId: outcome.deliveryId,
      httpStatus: outcome.httpStatus,
      responseTime: outcome.responseTime,
      event: { id: event.id, type: event.type },
      ...(succeeded(outcome.httpStatus)
        ? {}
        : { error: outcome.error ?? `the endpoint answered ${outcome.httpStatus}` }),
    };
  }

  /**
   * A stored event of the organization, delivered to the endpoint again with full retries: one the
   * caller may read (else 404, as an unknown one), since they choose where the endpoint sends.
   */
  async resend(
    organizationId: string,
    id: string,
    eventId: string,
    reader: EventReader,
  ): Promise<ResendView> {
    const endpoint = await this.endpoints.find(organizationId, id);
    const event = await this.events.get(organizationId, reader, eventId);
    if (!event) throw DomainError.notFound();
    if (!endpoint.active) {
      throw DomainError.conflict('the endpoint is disabled; enable it (PATCH active: true) first');
    }
    await this.limiter.consume(organizationId);
    const deliveryId = await this.deliveries.resend(endpoint, event);
    return { deliveryId, event: { id: event.id, type: event.type } };
  }

  /** The endpoint's attempts, newest first; `after` an attempt id of it. */
  async history(
    organizationId: string,
    id: string,
    page: { limit: number; after?: string },
  ): Promise<AttemptView[]> {
    const endpoint = await this.endpoints.find(organizationId, id);
    const query = this.attempts
      .createQueryBuilder('a')
      .where('a.endpoint_id = :endpointId', { endpointId: endpoint.id })
      .orderBy('a.timestamp', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .limit(page.limit);
    if (page.after) {
      const cursor = await this.attempts.findOneBy({ id: page.after, endpointId: endpoint.id });
      if (!cursor) throw DomainError.badRequest('after must be an attempt of this endpoint');
      query.andWhere('(a.timestamp, a.id) < (:timestamp, :id)', {
        timestamp: cursor.timestamp,
        id: cursor.id,
      });
    }
    return (await query.getMany()).map((a) => ({
      id: a.id,
      eventId: a.eventId,
      eventType: a.eventType,
      attempt: a.attempt,
      timestamp: a.timestamp.toISOString(),
      httpStatus: a.httpStatus,
      responseTime: a.responseTime,
      responseBody: a.responseBody,
      error: a.error,
    }));
  }
}
