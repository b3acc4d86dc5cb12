import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { WebhookDeliveries } from './webhook-deliveries.service';

/** How often each instance looks for deliveries whose wake-up was lost. */
export const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 500;

/**
 * The safety net under the queue: deliveries live in PostgreSQL, so a lost Redis, a lost drain
 * job or a worker that died holding an endpoint leaves them due but asleep. At start-up and every
 * SWEEP_EVERY_MS this wakes the endpoints with a delivery overdue (wake-ups are idempotent per
 * second, so instances may sweep at the same time).
 */
@Injectable()
export class WebhookSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private timer?: NodeJS.Timeout;

  constructor(private readonly deliveries: WebhookDeliveries) {}

  onApplicationBootstrap() {
    void this.sweepSafely(0);
    this.timer = setInterval(() => void this.sweepSafely(SWEEP_EVERY_MS), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
  }

  /** Wakes endpoints with a delivery due for at least `graceMs`; answers how many. */
  async sweep(graceMs: number): Promise<number> {
    const endpoints = await this.deliveries.overdueEndpoints(graceMs, SWEEP_BATCH);
    for (const endpoint of endpoints) await this.deliveries.wake(endpoint);
    return endpoints.length;
  }

  private async sweepSafely(graceMs: number) {
    try {
      await this.sweep(graceMs);
    } catch (err) {
      this.logger.warn(`Webhook sweep failed, will retry: ${(err as Error).message}`);
    }
  }
}
