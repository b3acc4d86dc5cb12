import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches } from '../../database';
import { RedisConnections } from '../../redis';

const HOUR = 3600_000;
/** How long an ended delivery and its attempts (the delivery history) are kept: as events. */
export const DELIVERY_RETENTION_DAYS = 30;

/**
 * Once a day across instances, deletes the deliveries that ended more than 30 days after they
 * were made, with their attempts; pending ones stay (their last retry is at most ~26.5 hours
 * away). Tried every hour, run by the first instance to take the day's lock.
 */
@Injectable()
export class DeliveryCleanup {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisConnections,
  ) {}

  @Interval('webhook-delivery-cleanup', HOUR)
  tick(): Promise<void> {
    return this.redis.onceADay('webhooks:delivery-cleanup', () => this.clean(), this.logger);
  }

  /** Deletes ended deliveries past their retention, in bounded batches; answers how many. */
  clean(): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      'webhook_delivery',
      `created < now() - make_interval(days => $2) AND status <> 'pending'`,
      [DELIVERY_RETENTION_DAYS],
    );
  }
}
