import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { AGENT_HEARTBEAT, QueueName } from '../../events';

/** Queues an organization's heartbeat (bursts coalesce: one job per organization at a time). */
@Injectable()
export class Heartbeats {
  constructor(@InjectQueue(QueueName.AgentHeartbeat) private readonly queue: Queue) {}

  async queueFor(organizationId: string): Promise<void> {
    await this.queue.add(
      AGENT_HEARTBEAT.name,
      { organizationId },
      { ...AGENT_HEARTBEAT.options, jobId: AGENT_HEARTBEAT.jobId(organizationId) },
    );
  }
}
