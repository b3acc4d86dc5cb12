import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { EventConsumers, EventEnvelope, QueueName } from '../events';
import { ChatSync } from './chat-sync.service';

const CONSUMER = 'chat';

/**
 * `member.added`, `member.updated` (accepting an invitation links the account) and
 * `member.removed` bring the organization's team in step, once per event. Registered whether or
 * not chat is configured (then a no-op), so these events never wait in the outbox.
 */
@Processor(QueueName.Chat)
export class ChatConsumer {
  private readonly logger = new Logger('Chat');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly sync: ChatSync,
  ) {
    consumers.register(QueueName.Chat);
  }

  @Process()
  async handle(job: Job<EventEnvelope>): Promise<void> {
    const event = job.data;
    if (!event.organization) return;
    const member = event.data.object as { user?: string | null; status?: string };
    const organizationId = event.organization;
    // The calls to the server run inside the marker's transaction: a failure leaves the event
    // unmarked and the job retries it.
    await this.consumers.once(CONSUMER, event.id, () =>
      this.sync.syncMember(organizationId, {
        userId: member.user ?? null,
        status: event.type === 'member.removed' ? 'removed' : (member.status ?? ''),
      }),
    );
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`chat job ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`);
  }
}
