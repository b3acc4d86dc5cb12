import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { HookTurns } from '../../agent';
import { AGENT_HEARTBEAT, QueueName } from '../../events';
import { HookDelivery } from './hook-delivery';

/**
 * A heartbeat: one agent turn in the main conversation with the pending system events, its reply
 * posted to the team chat unless it only acknowledges. Events that came in meanwhile get the
 * next heartbeat at once.
 */
/** Heartbeat turns one job runs at most while events keep coming (the schedule does the rest). */
const TURNS_PER_JOB = 5;

@Processor(QueueName.AgentHeartbeat)
export class HeartbeatConsumer {
  private readonly logger = new Logger('Hooks');

  constructor(
    private readonly turns: HookTurns,
    private readonly delivery: HookDelivery,
  ) {}

  @Process(AGENT_HEARTBEAT.name)
  async beat(job: Job<{ organizationId: string }>): Promise<void> {
    const { organizationId } = job.data;
    // This job's id is taken until it ends, so a wake meanwhile queues nothing: the events it
    // recorded are taken here, by the next turn (a bounded number of them).
    for (let turn = 0; turn < TURNS_PER_JOB; turn++) {
      const outcome = await this.turns.heartbeat(organizationId);
      if (!outcome) return;
      if (!outcome.acknowledgementOnly) await this.delivery.deliver(organizationId, outcome.text);
    }
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`heartbeat ${job.id} failed: ${err.message}`);
  }
}
