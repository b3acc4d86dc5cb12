import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock, DomainError, rateLimitHeaders, RateLimitState } from '../../common';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';

const DAY_MS = 24 * 3600_000;

/** Whose tokens a call of the model spends, and how many that one has a day. */
export interface TokenBudget {
  key: string;
  limit: number;
  /** What the budget is, for the refusal ("this organization"). */
  of: string;
}

/** The token counts of a Messages API answer (`usage`). */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Every token a call was billed for: input (cached or not) and output. */
const tokensOf = (usage: TokenUsage | undefined) =>
  usage
    ? usage.input_tokens +
      usage.output_tokens +
      (usage.cache_creation_input_tokens ?? 0) +
      (usage.cache_read_input_tokens ?? 0)
    : 0;

const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);
const nextUtcMidnight = (now: number) => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

/**
 * The agent's language-model spend per UTC day, counted in Redis across instances from the
 * provider's `usage` of every call: an organization's chat turns, heartbeats and hook runs
 * (AGENT_ORG_DAILY_TOKENS), a linked onboarding's analyses on its user's budget (the same
 * amount: a founder spends as their organization will), and the analyses of onboardings nobody
 * linked yet on one shared budget (ONBOARDING_ANONYMOUS_DAILY_TOKENS). A call is refused before it
 * is sent once the day's budget is spent (429 `agentBudgetExhausted` until midnight UTC); the
 * call that crosses it is counted whole.
 */
@Injectable()
export class TokenBudgets implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(
    private readonly env: Env,
    connections: RedisConnections,
    private readonly clock: Clock,
  ) {
    this.redis = connections.session();
    this.prefix = `${connections.prefix}agent:tokens:`;
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  organization(organizationId: string): TokenBudget {
    return {
      key: `org:${organizationId}`,
      limit: this.env.AGENT_ORG_DAILY_TOKENS,
      of: 'this organization',
    };
  }

  user(userId: string): TokenBudget {
    return { key: `user:${userId}`, limit: this.env.AGENT_ORG_DAILY_TOKENS, of: 'this user' };
  }

  anonymousOnboarding(): TokenBudget {
    return {
      key: 'onboarding:anonymous',
      limit: this.env.ONBOARDING_ANONYMOUS_DAILY_TOKENS,
      of: 'onboardings not yet linked to a user',
    };
  }

  /** A call of the model on `budget`: refused when the day's is spent, its usage counted. */
  async metered<T extends { usage?: TokenUsage }>(
    budget: TokenBudget,
    call: () => Promise<T>,
  ): Promise<T> {
    await this.assertAvailable(budget);
    const answer = await call();
    await this.spend(budget, answer.usage);
    return answer;
  }

  /** 429 `agentBudgetExhausted` (with `Retry-After` until midnight UTC) once the day's is spent. */
  async assertAvailable(budget: TokenBudget, now = this.clock.nowMs()): Promise<void> {
    const state = await this.state(budget, now);
    if (state.remaining > 0) return;
    throw DomainError.keyed(
      'agentBudgetExhausted',
      `the language-model budget of ${budget.of} for today (${budget.limit} tokens) is spent; it renews at midnight UTC`,
      { headers: rateLimitHeaders(now, (nextUtcMidnight(now) - now) / 1000, budget.limit) },
    );
  }

  async spend(budget: TokenBudget, usage: TokenUsage | undefined, now = this.clock.nowMs()) {
    const tokens = tokensOf(usage);
    if (tokens <= 0) return;
    const key = this.keyOf(budget, now);
    await this.redis
      .multi()
      .incrby(key, tokens)
      // A day's count is of no use after it (an hour's margin for clocks that differ).
      .pexpireat(key, nextUtcMidnight(now) + 3600_000)
      .exec();
  }

  async state(budget: TokenBudget, now = this.clock.nowMs()): Promise<RateLimitState> {
    const used = Number((await this.redis.get(this.keyOf(budget, now))) ?? 0);
    return {
      limit: budget.limit,
      remaining: Math.max(0, budget.limit - used),
      reset: nextUtcMidnight(now) / 1000,
    };
  }

  private keyOf(budget: TokenBudget, now: number) {
    return `${this.prefix}${budget.key}:${utcDay(now)}`;
  }
}
