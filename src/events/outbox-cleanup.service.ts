import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Interval } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { RedisConnections } from '../redis';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** How long the event list keeps an event (issue 21). */
export const EVENT_RETENTION_DAYS = 30;
/** Rows one statement deletes, and statements one run makes: a run stays short whatever piled up. */
const BATCH = 1000;
const BATCHES_PER_RUN = 100;

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
  async tick(): Promise<void> {
    try {
      if (await this.redis.claimTurn('events:outbox-cleanup', DAY - 5 * 60_000)) await this.clean();
    } catch (err) {
      // The next day's run deletes what this one left.
      this.logger.warn(`outbox clean-up failed: ${(err as Error).message}`);
    }
  }

  /** Deletes relayed rows past their retention, in bounded batches; answers how many. */
  async clean(): Promise<number> {
    let total = 0;
    for (let i = 0; i < BATCHES_PER_RUN; i++) {
      const [, deleted] = (await this.dataSource.query(
        `DELETE FROM outbox_event WHERE id IN (
           SELECT id FROM outbox_event
            WHERE created < now() - make_interval(days => $1) AND relayed_at IS NOT NULL
            LIMIT $2)`,
        [EVENT_RETENTION_DAYS, BATCH],
      )) as [unknown, number];
      total += deleted;
      if (deleted < BATCH) break;
    }
    return total;
  }
}
