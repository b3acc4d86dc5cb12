import type Redis from 'ioredis';
import { DomainError } from '../errors/domain-error';
import type { Clock } from '../time/clock';

/** `X-RateLimit-*` as a value: the limit, calls left, the window's end in unix seconds. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  reset: number;
}

export interface RateLimit {
  /** Calls allowed per window. */
  limit: number;
  windowMs: number;
}

/**
 * Calls per key in fixed windows, counted in Redis (shared by every instance). Past the limit a
 * call is refused with 429, `Retry-After` and the `X-RateLimit-Limit`, `X-RateLimit-Remaining`
 * and `X-RateLimit-Reset` (the end of the window, a unix timestamp in seconds) headers.
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    /** Keys are `<prefix><key>`; the prefix names the limit (`promo:`). */
    private readonly prefix: string,
    private readonly rule: RateLimit,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts `count` calls of `key` (1 by default); throws the 429 when they would pass the limit,
   * and then counts none of them (a batch runs whole or not at all).
   */
  async consume(key: string, count = 1): Promise<void> {
    await this.take(key, count);
  }

  /** `consume`, answering where the key stands after the calls (an accepted call's headers). */
  async take(key: string, count = 1): Promise<RateLimitState> {
    const redisKey = `${this.prefix}${key}`;
    const results = await this.redis
      .multi()
      // The first call of a window starts it: the key expires with the window.
      .set(redisKey, '0', 'PX', this.rule.windowMs, 'NX')
      .incrby(redisKey, count)
      .pttl(redisKey)
      .exec();
    const total = Number(results?.[1]?.[1] ?? 0);
    const ttlMs = Number(results?.[2]?.[1] ?? this.rule.windowMs);
    const leftMs = ttlMs > 0 ? ttlMs : this.rule.windowMs;
    if (total <= this.rule.limit) {
      const reset = Math.ceil((this.clock.nowMs() + leftMs) / 1000);
      return { limit: this.rule.limit, remaining: this.rule.limit - total, reset };
    }
    await this.redis.decrby(redisKey, count);
    throw DomainError.tooManyRequests(
      this.clock.nowMs(),
      leftMs / 1000,
      'too many requests, retry later',
      this.rule.limit,
    );
  }

  /** Where `key` stands: its limit, the calls left in the window and when the window ends. */
  async state(key: string, now = this.clock.nowMs()): Promise<RateLimitState> {
    const redisKey = `${this.prefix}${key}`;
    const [used, ttlMs] = await Promise.all([this.redis.get(redisKey), this.redis.pttl(redisKey)]);
    const windowLeft = ttlMs > 0 ? ttlMs : this.rule.windowMs;
    return {
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - Number(used ?? 0)),
      reset: Math.ceil((now + windowLeft) / 1000),
    };
  }
}
