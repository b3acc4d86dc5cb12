import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches } from '../../database';
import { RedisConnections } from '../../redis';

const HOUR = 3600_000;
/** How long a system event is kept: consumed ones as a record, pending ones waiting a heartbeat. */
export const SYSTEM_EVENT_RETENTION_DAYS = 7;

/**
 * Once a day across instances, deletes the system events consumed more than a week ago (their
 * text reached the conversation) and the pending ones a week old (no heartbeat took them: the
 * organization's agent is idle or its heartbeats fail), so neither piles up without bound.
 */
@Injectable()
export class SystemEventCleanup {
  private readonly logger = new Logger('SystemEvents');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisConnections,
  ) {}

  @Interval('agent-system-event-cleanup', HOUR)
  tick(): Promise<void> {
    return this.redis.onceADay('agent:system-event-cleanup', () => this.clean(), this.logger);
  }

  /** Deletes what is past its retention, in bounded batches; answers how many. */
  clean(): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      'agent_system_event',
      `COALESCE(consumed_at, created) < now() - make_interval(days => $2)`,
      [SYSTEM_EVENT_RETENTION_DAYS],
    );
  }
}
