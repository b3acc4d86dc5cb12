import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { HookTurns } from '../../agent';
import { AGENT_HOOK_RUN, QueueName } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import type { AgentHookRequest, HookActions, WakeRequest } from '../hook-actions';
import { Heartbeats } from './heartbeats';
import type { HookRunJob } from './hook-run.consumer';

/** What the hooks' HTTP layer starts: system events and heartbeats, and queued hook runs. */
@Injectable()
export class HookActionsService implements HookActions {
  constructor(
    private readonly organizations: OrganizationsDirectory,
    private readonly turns: HookTurns,
    private readonly heartbeats: Heartbeats,
    @InjectQueue(QueueName.AgentHookRun) private readonly runs: Queue,
  ) {}

  async organizationExists(organizationId: string): Promise<boolean> {
    return (await this.organizations.organization(organizationId)) !== null;
  }

  async wake(request: WakeRequest): Promise<void> {
    await this.turns.record(request.organizationId, request.text, request.source);
    if (request.mode === 'now') await this.heartbeats.queueFor(request.organizationId);
  }

  async agent(request: AgentHookRequest): Promise<{ runId: string }> {
    const runId = randomUUID();
    const job: HookRunJob = {
      runId,
      request: { ...request, sessionKey: request.sessionKey ?? `hook:${randomUUID()}` },
    };
    await this.runs.add(AGENT_HOOK_RUN.name, job, { ...AGENT_HOOK_RUN.options, jobId: runId });
    return { runId };
  }
}
