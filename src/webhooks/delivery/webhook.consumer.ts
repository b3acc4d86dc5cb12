import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import {
  EventConsumers,
  EventEnvelope,
  isPublicEventType,
  OnDomainEvent,
  QueueName,
  WEBHOOK_DELIVERY,
} from '../../events';
import { WebhookDeliveries, wireEvent } from './webhook-deliveries.service';

/** Endpoints sent to at once by one process (each holds one endpoint). */
const DRAIN_CONCURRENCY = 8;

/**
 * The catalogue's events become deliveries to the subscribed endpoints (once per event), and
 * `drain` jobs send an endpoint's due deliveries. Registered whatever else is configured: events
 * must not wait in the outbox for a consumer.
 */
@OnDomainEvent(isPublicEventType)
@Processor(QueueName.Webhooks)
export class WebhookConsumer {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  @Process()
  async fanOut(job: Job<EventEnvelope>): Promise<void> {
    const event = job.data;
    // Nothing to send still leaves the marker: the re-relay looks for one per event handed over.
    // Most organizations have no endpoint: a read and an insert instead of a transaction.
    if (
      !event.organization ||
      !isPublicEventType(event.type) ||
      !(await this.deliveries.hasActiveEndpoint(event.organization))
    ) {
      return this.consumers.mark(QueueName.Webhooks, event.id);
    }
    const wire = wireEvent({ ...event, type: event.type, organization: event.organization });
    let endpoints: string[] | undefined;
    await this.consumers.once(QueueName.Webhooks, event.id, async (manager) => {
      endpoints = await this.deliveries.fanOut(manager, wire);
    });
    // A redelivered job: the fan-out committed, but its wake-ups may be what was lost.
    endpoints ??= await this.deliveries.pendingEndpointsOf(event.id);
    for (const endpoint of endpoints) await this.deliveries.wake(endpoint);
  }

  @Process({ name: WEBHOOK_DELIVERY.drain.name, concurrency: DRAIN_CONCURRENCY })
  async drain(job: Job<{ endpointId: string }>): Promise<void> {
    await this.deliveries.drain(job.data.endpointId);
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`webhooks job ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`);
  }
}
