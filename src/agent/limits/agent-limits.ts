import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock, RateLimiter, RateLimitState } from '../../common';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';
import { clientNetwork } from './client-network';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const LIMIT_NAMES = ['toolCalls', 'writes', 'destructive', 'turns'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/**
 * The agent's limits, counted in Redis across instances through the shared RateLimiter. Per user
 * (spec section 8 and issue 35): tool calls per minute (every `tool_use` block, run or pending),
 * executed writes per minute, executed destructive actions per hour, chat turns per hour. Per
 * onboarding: its analyses per day. For the public onboarding route: creates per client (an IPv6
 * client by its /64) per hour, and per hour from all clients together. Past one: 429 with
 * `Retry-After` and `X-RateLimit-*`.
 */
@Injectable()
export class AgentLimits implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly limiters: Record<LimitName, RateLimiter>;
  private readonly onboardingCreates: RateLimiter;
  private readonly allOnboardingCreates: RateLimiter;
  private readonly onboardingAnalyses: RateLimiter;

  constructor(env: Env, connections: RedisConnections, clock: Clock) {
    this.redis = connections.session();
    const limiter = (name: string, limit: number, windowMs: number) =>
      new RateLimiter(
        this.redis,
        `${connections.prefix}agent:${name}:`,
        { limit, windowMs },
        clock,
      );
    this.limiters = {
      toolCalls: limiter('tool-calls', env.AGENT_MAX_TOOL_CALLS_PER_MINUTE, MINUTE),
      writes: limiter('writes', env.AGENT_MAX_WRITE_OPS_PER_MINUTE, MINUTE),
      destructive: limiter('destructive', env.AGENT_MAX_DESTRUCTIVE_PER_HOUR, HOUR),
      turns: limiter('turns', env.AGENT_TURNS_PER_USER_PER_HOUR, HOUR),
    };
    this.onboardingCreates = limiter('onboarding-ip', env.ONBOARDING_IP_LIMIT, HOUR);
    this.allOnboardingCreates = limiter('onboarding-all', env.ONBOARDING_CREATES_PER_HOUR, HOUR);
    this.onboardingAnalyses = limiter(
      'onboarding-analyses',
      env.ONBOARDING_ANALYSES_PER_ONBOARDING,
      DAY,
    );
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /** Counts `count` of the limit for `who`, or throws the 429 and counts none. */
  consume(name: LimitName, who: string, count = 1): Promise<void> {
    return this.limiters[name].consume(who, count);
  }

  /**
   * One onboarding created from a client address: ONBOARDING_IP_LIMIT per client per hour, then
   * ONBOARDING_CREATES_PER_HOUR from all clients, else 429. The client's limit is counted first,
   * so a client it refuses spends nothing of everyone's.
   */
  async consumeOnboardingCreate(clientIp: string): Promise<void> {
    await this.onboardingCreates.consume(clientNetwork(clientIp));
    await this.allOnboardingCreates.consume('all');
  }

  /** One analysis asked of an onboarding: ONBOARDING_ANALYSES_PER_ONBOARDING a day, else 429. */
  consumeOnboardingAnalysis(onboardingId: string): Promise<void> {
    return this.onboardingAnalyses.consume(onboardingId);
  }

  async state(who: string): Promise<Record<LimitName, RateLimitState>> {
    const states = await Promise.all(LIMIT_NAMES.map((n) => this.limiters[n].state(who)));
    return Object.fromEntries(LIMIT_NAMES.map((n, i) => [n, states[i]])) as Record<
      LimitName,
      RateLimitState
    >;
  }
}
