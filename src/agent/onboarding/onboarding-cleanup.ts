import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches } from '../../database';
import { RedisConnections } from '../../redis';

const HOUR = 3600_000;
/** How long an onboarding nobody linked keeps its e-mail address and description. */
export const UNLINKED_RETENTION_DAYS = 7;

/**
 * Once a day across instances, deletes the onboardings no user linked within 7 days: they hold
 * an address and a company's description given without an account, kept no longer than a
 * sign-up takes. Tried every hour, run by the first instance to take the day's turn.
 */
@Injectable()
export class OnboardingCleanup {
  private readonly logger = new Logger('Onboarding');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisConnections,
  ) {}

  @Interval('agent-onboarding-cleanup', HOUR)
  tick(): Promise<void> {
    return this.redis.onceADay('agent:onboarding-cleanup', () => this.clean(), this.logger);
  }

  /** Deletes unlinked onboardings past their retention, in bounded batches; answers how many. */
  clean(): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      'agent_onboarding',
      `linked_user_id IS NULL AND created < now() - make_interval(days => $2)`,
      [UNLINKED_RETENTION_DAYS],
    );
  }
}
