import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { RedisConnections } from '../../redis';
import { CountPushConsumer } from './count-push.consumer';
import { CountSyncRepository } from './count-sync.repository';

const EVERY_MINUTE = 60_000;
/** Organizations one sweep re-queues; the rest wait for the next minute. */
const BATCH = 500;

/**
 * Each minute, one instance re-queues the pushes of organizations whose counts are behind: a
 * change during a push, a push out of retries, a job lost with Redis or with a process killed
 * between the event's commit and its job.
 */
@Injectable()
export class CountSweep {
  private readonly logger = new Logger('BillingCounts');

  constructor(
    private readonly syncs: CountSyncRepository,
    private readonly consumer: CountPushConsumer,
    private readonly redis: RedisConnections,
  ) {}

  @Interval('billing-count-sweep', EVERY_MINUTE)
  async tick(): Promise<void> {
    try {
      // Once per tick across instances: the first to take the minute's turn sweeps.
      if (await this.redis.claimTurn('billing:count-sweep', EVERY_MINUTE - 5_000))
        await this.sweep();
    } catch (err) {
      this.logger.warn(`billing count sweep failed: ${(err as Error).message}`);
    }
  }

  /** Re-queues every organization behind, now; answers how many. */
  async sweep(): Promise<number> {
    const behind = await this.syncs.behind(BATCH);
    for (const organizationId of behind) await this.consumer.schedule(organizationId, 0);
    return behind.length;
  }
}
