import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { EventConsumers, EventEnvelope, eventObject, OnDomainEvent, QueueName } from '../events';
import { ChatSync } from './chat-sync.service';

/**
 * `member.added`, `member.updated` (accepting an invitation links the account, a role changes)
 * and `member.removed` bring the member's place in the organization's team and its private
 * channel in step; `role.updated` and `role.deleted` the private channel's members (a role's
 * permissions decide who may read the cap table). Registered whether or not chat is configured (then a no-op), so these events
 * never wait in the outbox.
 */
@OnDomainEvent('member.added', 'member.updated', 'member.removed', 'role.updated', 'role.deleted')
@Processor(QueueName.Chat)
export class ChatConsumer {
  private readonly logger = new Logger('Chat');

  constructor(
    private readonly sync: ChatSync,
    private readonly consumers: EventConsumers,
  ) {}

  @Process()
  async handle(job: Job<EventEnvelope>): Promise<void> {
    await this.work(job.data);
    // The marker, after the work and outside any transaction: it only tells the re-relay that
    // this queue consumed the event (a job lost with Redis has none, and is relayed again).
    await this.consumers.mark(QueueName.Chat, job.data.id);
  }

  private async work(event: EventEnvelope): Promise<void> {
    if (!event.organization) return;
    if (event.type.startsWith('role.')) return this.sync.syncChannel(event.organization);
    const member = eventObject(event, 'member.added', 'member.updated', 'member.removed');
    // Not inside `EventConsumers.once`: its marker's transaction would stay open across the calls
    // to the server. Running once is not needed either: the sync reads the member's current
    // state, so a job run twice (or late, after a newer change) leaves the same result; a failure
    // retries the job.
    await this.sync.syncMember(event.organization, member?.user ?? null);
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`chat job ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`);
  }
}
