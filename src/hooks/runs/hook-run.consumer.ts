import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { HookTurns, isAcknowledgementOnly } from '../../agent';
import { AGENT_HOOK_RUN, QueueName } from '../../events';
import type { AgentHookRequest, Thinking } from '../hook-actions';
import { Heartbeats } from './heartbeats';
import { HookDelivery } from './hook-delivery';

/** Extended thinking's budget per `thinking` level, in tokens. */
const THINKING_TOKENS: Record<Thinking, number> = { low: 1024, medium: 4096, high: 16384 };

export interface HookRunJob {
  runId: string;
  request: AgentHookRequest & { sessionKey: string };
}

/**
 * An isolated agent turn of a gateway hook, bounded by its `timeoutSeconds`. Whatever the
 * outcome, the main conversation gets a system event `Hook <name>: <text>` (or `(error)`);
 * `wakeMode: now` then runs a heartbeat. The reply is posted to the team chat when asked to and
 * it says more than an acknowledgement.
 */
@Processor(QueueName.AgentHookRun)
export class HookRunConsumer {
  private readonly logger = new Logger('Hooks');

  constructor(
    private readonly turns: HookTurns,
    private readonly delivery: HookDelivery,
    private readonly heartbeats: Heartbeats,
  ) {}

  @Process(AGENT_HOOK_RUN.name)
  async run(job: Job<HookRunJob>): Promise<void> {
    const { request } = job.data;
    const organizationId = request.organizationId;
    const timeout = AbortSignal.timeout(request.timeoutSeconds * 1000);
    let summary: string;
    let reply: string | null = null;
    try {
      const result = await this.turns.hookRun({
        organizationId,
        message: request.message,
        name: request.name,
        sessionKey: request.sessionKey,
        model: request.model,
        thinkingTokens: request.thinking ? THINKING_TOKENS[request.thinking] : undefined,
        signal: timeout,
      });
      reply = result.text;
      summary = `Hook ${request.name}: ${result.text}`;
    } catch (err) {
      const reason = timeout.aborted
        ? `timed out after ${request.timeoutSeconds} s`
        : (err as Error).message;
      summary = `Hook ${request.name} (error): ${reason}`;
      this.logger.warn(`hook run ${job.data.runId} failed: ${reason}`);
    }
    await this.turns.record(organizationId, summary, `hook:${request.name}`);
    if (request.wakeMode === 'now') await this.heartbeats.queueFor(organizationId);
    if (reply !== null && request.deliver && !isAcknowledgementOnly(reply)) {
      // `channel` (last or chat) both post to the team chat; `to` names the channel.
      await this.delivery.deliver(organizationId, reply, request.to);
    }
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`hook run ${job.id} failed: ${err.message}`);
  }
}
