import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Env } from '../../config';
import { deleteInBatches } from '../../database';
import { RedisConnections } from '../../redis';

const HOUR = 3600_000;

/**
 * Once a day across instances, deletes the conversations (their messages and steps with them)
 * idle for AGENT_CONVERSATION_RETENTION_DAYS: no message added since. Every kind goes: a main or
 * hook conversation is made again on its next use.
 */
@Injectable()
export class ConversationCleanup {
  private readonly logger = new Logger('Conversations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisConnections,
    private readonly env: Env,
  ) {}

  @Interval('agent-conversation-cleanup', HOUR)
  tick(): Promise<void> {
    return this.redis.onceADay('agent:conversation-cleanup', () => this.clean(), this.logger);
  }

  /** Deletes the conversations past their retention, in bounded batches; answers how many. */
  clean(): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      'agent_conversation',
      `updated < now() - make_interval(days => $2)`,
      [this.env.AGENT_CONVERSATION_RETENTION_DAYS],
    );
  }
}
