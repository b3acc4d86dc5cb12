import { Injectable } from '@nestjs/common';
import { MINUTE, Scheduled } from '../../scheduler';
import { CountPushConsumer } from './count-push.consumer';
import { CountSyncRepository } from './count-sync.repository';

/** Organizations one sweep re-queues; the rest wait for the next minute. */
const BATCH = 500;

/**
 * Each minute, one instance re-queues the pushes of organizations whose counts are behind: a
 * change during a push, a push out of retries, a job lost with Redis or with a process killed
 * between the event's commit and its job.
 */
@Injectable()
export class CountSweep {
  constructor(
    private readonly syncs: CountSyncRepository,
    private readonly consumer: CountPushConsumer,
  ) {}

  /** Re-queues every organization behind, now; answers how many. */
  @Scheduled({ name: 'billing:count-sweep', every: MINUTE })
  async sweep(): Promise<number> {
    const behind = await this.syncs.behind(BATCH);
    for (const organizationId of behind) await this.consumer.schedule(organizationId, 0);
    return behind.length;
  }
}
