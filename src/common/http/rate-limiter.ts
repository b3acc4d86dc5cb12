import type Redis from 'ioredis';
import { DomainError } from '../errors/domain-error';

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
  ) {}

  /** Counts one call of `key`; throws the 429 when it is one too many. */
  async consume(key: string): Promise<void> {
    const redisKey = `${this.prefix}${key}`;
    const results = await this.redis
      .multi()
      // The first call of a window starts it: the key expires with the window.
      .set(redisKey, '0', 'PX', this.rule.windowMs, 'NX')
      .incr(redisKey)
      .pttl(redisKey)
      .exec();
    const count = Number(results?.[1]?.[1] ?? 0);
    const ttlMs = Number(results?.[2]?.[1] ?? this.rule.windowMs);
    if (count <= this.rule.limit) return;
    const leftMs = ttlMs > 0 ? ttlMs : this.rule.windowMs;
    throw DomainError.tooManyRequests(
      leftMs / 1000,
      'too many requests, retry later',
      this.rule.limit,
    );
  }
}
