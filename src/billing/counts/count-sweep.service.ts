import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import type Redis from 'ioredis';
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
export class CountSweep implements OnModuleDestroy {
  private readonly logger = new Logger('BillingCounts');
  private readonly redis: Redis;
  private readonly lockKey: string;

  constructor(
    private readonly syncs: CountSyncRepository,
    private readonly consumer: CountPushConsumer,
    connections: RedisConnections,
  ) {
    this.redis = connections.session();
    this.lockKey = `${connections.prefix}billing:count-sweep`;
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  @Interval('billing-count-sweep', EVERY_MINUTE)
  async tick(): Promise<void> {
    try {
      // Once per tick across instances: the first to take the minute's lock sweeps.
      const mine = await this.redis.set(this.lockKey, '1', 'PX', EVERY_MINUTE - 5_000, 'NX');
      if (mine) await this.sweep();
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
