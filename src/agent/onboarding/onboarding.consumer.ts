import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { ONBOARDING_ANALYSIS, QueueName } from '../../events';
import { isBudgetExhausted, OnboardingAnalysis } from './onboarding-analysis.service';

/** The first analysis of an onboarding, queued when it is created (the founder signs up meanwhile). */
@Processor(QueueName.AgentOnboarding)
export class OnboardingConsumer {
  private readonly logger = new Logger('Onboarding');

  constructor(private readonly analysis: OnboardingAnalysis) {}

  @Process(ONBOARDING_ANALYSIS.name)
  async analyse(job: Job<{ onboardingId: string }>): Promise<void> {
    const retrying = job.attemptsMade + 1 < ONBOARDING_ANALYSIS.options.attempts;
    try {
      await this.analysis.run(job.data.onboardingId, [], retrying);
    } catch (err) {
      // The row says so (`failed`); the founder analyses again, on their own budget once linked.
      if (isBudgetExhausted(err)) {
        this.logger.warn(`onboarding analysis ${job.id}: ${(err as Error).message}`);
        return;
      }
      throw err;
    }
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(
      `onboarding analysis ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`,
    );
  }
}
