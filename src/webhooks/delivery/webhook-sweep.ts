import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Scheduled } from '../../scheduler';
import { WebhookDeliveries } from './webhook-deliveries.service';

/** How often the deliveries whose wake-up was lost are looked for (across instances). */
export const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 500;

/**
 * The safety net under the queue: deliveries live in PostgreSQL, so a lost Redis, a lost drain
 * job or a worker that died holding an endpoint leaves them due but asleep. At an instance's
 * start-up, and every SWEEP_EVERY_MS across instances, this wakes the endpoints with a delivery
 * overdue (wake-ups are idempotent per second, so a start-up sweep may meet a scheduled one).
 */
@Injectable()
export class WebhookSweep implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(private readonly deliveries: WebhookDeliveries) {}

  onApplicationBootstrap() {
    void this.sweep(0).catch((err: Error) =>
      this.logger.warn(`Webhook sweep failed, will retry: ${err.message}`),
    );
  }

  @Scheduled({ name: 'webhooks:sweep', every: SWEEP_EVERY_MS })
  sweepOverdue(): Promise<number> {
    return this.sweep(SWEEP_EVERY_MS);
  }

  /** Wakes endpoints with a delivery due for at least `graceMs`; answers how many. */
  async sweep(graceMs: number): Promise<number> {
    const endpoints = await this.deliveries.overdueEndpoints(graceMs, SWEEP_BATCH);
    for (const endpoint of endpoints) await this.deliveries.wake(endpoint);
    return endpoints.length;
  }
}
