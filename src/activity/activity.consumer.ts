import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import {
  EventConsumers,
  EventEnvelope,
  isAccountEventType,
  OnDomainEvent,
  QueueName,
} from '../events';
import { audienceOf } from '../organizations';
import { ActivityAction } from './activity-action.entity';

/** Every domain event of an organization becomes one entry of its activity log. */
@OnDomainEvent((type) => !type.startsWith('billing.') && !isAccountEventType(type))
@Processor(QueueName.Activity)
export class ActivityConsumer {
  private readonly logger = new Logger(ActivityConsumer.name);

  constructor(private readonly consumers: EventConsumers) {}

  @Process()
  async handle(job: Job<EventEnvelope>): Promise<void> {
    const event = job.data;
    // Its marker all the same: the re-relay looks for one per event the queue was handed.
    if (!event.organization) return this.consumers.mark(QueueName.Activity, event.id);
    const audience = audienceOf(event.type, event.subjects);
    await this.consumers.once(QueueName.Activity, event.id, async (manager) => {
      await manager.insert(ActivityAction, {
        organizationId: event.organization!,
        type: event.type,
        description: event.description ?? describe(event.type),
        userId: event.actor,
        eventId: event.id,
        metadata: { eventId: event.id, data: event.data } as never,
        audiencePermission: audience.permission,
        audienceMemberIds: [...audience.members],
        created: new Date(event.created),
      });
    });
  }

  @OnQueueFailed()
  onFailed(job: Job<EventEnvelope>, err: Error) {
    this.logger.warn(
      `Activity for ${job.data.id} failed (attempt ${job.attemptsMade}): ${err.message}`,
    );
  }
}

/** `member.invited` → "Member invited". */
export const describe = (type: string) => {
  const text = type.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
