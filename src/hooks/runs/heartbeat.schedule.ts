import { Injectable } from '@nestjs/common';
import { HookTurns } from '../../agent';
import { Scheduled } from '../../scheduler';
import { Heartbeats } from './heartbeats';

/**
 * Every HOOKS_HEARTBEAT_EVERY (unless 0: on demand only), once per period across instances, a
 * heartbeat for each organization with pending system events (`next-heartbeat` wakes, hook
 * summaries nobody woke for).
 */
@Injectable()
export class HeartbeatSchedule {
  constructor(
    private readonly turns: HookTurns,
    private readonly heartbeats: Heartbeats,
  ) {}

  /** Queues the heartbeats; answers how many organizations had events pending. */
  @Scheduled({ name: 'hooks:heartbeat', every: (env) => env.hooksHeartbeatEveryMs })
  async beat(): Promise<number> {
    const organizations = await this.turns.pendingOrganizations();
    for (const organizationId of organizations) await this.heartbeats.queueFor(organizationId);
    return organizations.length;
  }
}
