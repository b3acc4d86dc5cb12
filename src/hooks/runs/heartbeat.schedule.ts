import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HookTurns } from '../../agent';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';
import { Heartbeats } from './heartbeats';

/**
 * Every HOOKS_HEARTBEAT_EVERY (unless 0: on demand only), once per tick across instances, a
 * heartbeat for each organization with pending system events (`next-heartbeat` wakes, hook
 * summaries nobody woke for).
 */
@Injectable()
export class HeartbeatSchedule implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Hooks');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly env: Env,
    private readonly redis: RedisConnections,
    private readonly turns: HookTurns,
    private readonly heartbeats: Heartbeats,
  ) {}

  onApplicationBootstrap() {
    const every = this.env.hooksHeartbeatEveryMs;
    if (every > 0) this.timer = setInterval(() => void this.tick(every), every);
  }

  onModuleDestroy() {
    clearInterval(this.timer);
  }

  async tick(every: number): Promise<void> {
    try {
      if (!(await this.redis.claimTurn('hooks:heartbeat', Math.max(1000, every - 1000)))) return;
      for (const organizationId of await this.turns.pendingOrganizations()) {
        await this.heartbeats.queueFor(organizationId);
      }
    } catch (err) {
      this.logger.warn(`heartbeat tick failed: ${(err as Error).message}`);
    }
  }
}
