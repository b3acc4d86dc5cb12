import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiter, RateLimitState } from '../../common';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type LimitName = 'toolCalls' | 'writes' | 'destructive';

/**
 * The agent's limits per user (spec section 8), counted in Redis across instances: tool calls per
 * minute (every `tool_use` block, run or pending), executed writes per minute, executed
 * destructive actions per hour. Past one: 429 with `Retry-After` and `X-RateLimit-*`.
 */
@Injectable()
export class AgentLimits implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly limiters: Record<LimitName, RateLimiter>;
  private readonly onboardingCreates: RateLimiter;

  constructor(env: Env, connections: RedisConnections) {
    this.redis = connections.session();
    const limiter = (name: string, limit: number, windowMs: number) =>
      new RateLimiter(this.redis, `${connections.prefix}agent:${name}:`, { limit, windowMs });
    this.limiters = {
      toolCalls: limiter('tool-calls', env.AGENT_MAX_TOOL_CALLS_PER_MINUTE, MINUTE),
      writes: limiter('writes', env.AGENT_MAX_WRITE_OPS_PER_MINUTE, MINUTE),
      destructive: limiter('destructive', env.AGENT_MAX_DESTRUCTIVE_PER_HOUR, HOUR),
    };
    this.onboardingCreates = limiter('onboarding-ip', env.ONBOARDING_IP_LIMIT, HOUR);
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /** Counts `count` of the limit for `who`, or throws the 429 and counts none. */
  consume(name: LimitName, who: string, count = 1): Promise<void> {
    return this.limiters[name].consume(who, count);
  }

  /** One onboarding created from a client address: ONBOARDING_IP_LIMIT per hour, else 429. */
  consumeOnboardingCreate(clientIp: string): Promise<void> {
    return this.onboardingCreates.consume(clientIp);
  }

  async state(who: string): Promise<Record<LimitName, RateLimitState>> {
    const [toolCalls, writes, destructive] = await Promise.all(
      (['toolCalls', 'writes', 'destructive'] as const).map((n) => this.limiters[n].state(who)),
    );
    return { toolCalls, writes, destructive };
  }
}
