import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Interval } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { deleteInBatches } from '../database';
import { RedisConnections } from '../redis';

const HOUR = 3600_000;
/** How long the event list keeps an event (issue 21). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Once a day across instances, deletes the outbox rows relayed more than 30 days ago (by their
 * `created`); rows not yet relayed stay whatever their age. Tried every hour, run by the first
 * instance to take the day's lock, so a process restarted more often than daily still cleans.
 */
@Injectable()
export class OutboxCleanup {
  private readonly logger = new Logger('Outbox');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisConnections,
  ) {}

  @Interval('outbox-cleanup', HOUR)
  tick(): Promise<void> {
    return this.redis.onceADay('events:outbox-cleanup', () => this.clean(), this.logger);
  }

  /** Deletes relayed rows past their retention, in bounded batches; answers how many. */
  clean(): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      'outbox_event',
      `created < now() - make_interval(days => $2) AND relayed_at IS NOT NULL`,
      [EVENT_RETENTION_DAYS],
    );
  }
}
