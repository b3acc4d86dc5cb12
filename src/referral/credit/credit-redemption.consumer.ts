import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { CREDIT_REDEMPTION, QueueName } from '../../events';
import { CreditRedemptions } from './credit-redemptions.service';

/** Retries a redemption that could not be made at once (the billing provider unreachable). */
@Processor(QueueName.CreditRedemption)
export class CreditRedemptionConsumer {
  private readonly logger = new Logger('CreditRedemptions');

  constructor(private readonly redemptions: CreditRedemptions) {}

  @Process(CREDIT_REDEMPTION.name)
  async handle(job: Job<{ entityId: string }>): Promise<void> {
    await this.redemptions.redeem(job.data.entityId);
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(
      `redemption job ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`,
    );
  }
}
