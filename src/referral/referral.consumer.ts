import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { EventConsumers, EventEnvelope, eventObject, OnDomainEvent, QueueName } from '../events';
import { CreditRedemptions } from './credit/credit-redemptions.service';
import { ReferralEvents } from './referral-events.service';

/**
 * `user.registered` links the invitee, once per event (the processed marker is written in the
 * same transaction as the work); `subscription.created` redeems the organization's credit. The
 * reward card is earned on the first successful payment instead (`ReferralEvents.paid`, in the
 * billing webhook's transaction). Always registered, so these events never wait.
 */
@OnDomainEvent('user.registered', 'subscription.created')
@Processor(QueueName.Referral)
export class ReferralConsumer {
  private readonly logger = new Logger('Referral');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly referral: ReferralEvents,
    private readonly redemptions: CreditRedemptions,
  ) {}

  @Process()
  async handle(job: Job<EventEnvelope>): Promise<void> {
    const event = job.data;
    await this.consumers.once(QueueName.Referral, event.id, async (manager) => {
      if (event.type === 'user.registered') await this.referral.registered({ manager }, event);
    });
    // A subscription that starts takes the organization's credit at once. Outside the marker's
    // transaction (it calls the provider), and on every delivery: a redelivered event whose
    // marker was written before a crash still redeems, and redeeming twice finds nothing left.
    const subscription = eventObject(event, 'subscription.created');
    if (subscription) await this.redemptions.redeemSoon(subscription.entity);
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`referral job ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`);
  }
}
