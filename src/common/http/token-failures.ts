import type Redis from 'ioredis';
import { DomainError } from '../errors/domain-error';
import type { Clock } from '../time/clock';
import { RateLimit, RateLimiter } from './rate-limiter';

/** Failed checks of a machine credential allowed per kind, client IP and window. */
export const TOKEN_FAILURES_PER_IP: RateLimit = { limit: 10, windowMs: 15 * 60_000 };

/**
 * Failed checks of a machine credential (`@Machine`: the chat gateway's token, the billing
 * provider's signature, the gateway hooks' token) per key, the access guard's `<kind>:<client
 * IP>`, counted by the RateLimiter in Redis. Once an address has used up its failures of a kind,
 * every request of that kind from it is refused (429) until the window ends, a right credential
 * too: otherwise the answer would tell a guess that hit. Other addresses go on. The IP is
 * `clientIp`'s (X-Forwarded-For only behind TRUST_PROXY), so a client cannot reset its count by
 * inventing addresses.
 */
export class TokenFailureThrottle {
  private readonly limiter: RateLimiter;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly clock: Clock,
  ) {
    this.limiter = new RateLimiter(redis, prefix, TOKEN_FAILURES_PER_IP, clock);
  }

  /** 429 with `Retry-After` and `X-RateLimit-*` while `key` has no failure left. */
  async assertAllowed(key: string): Promise<void> {
    const now = this.clock.nowMs();
    const state = await this.limiter.state(key, now);
    if (state.remaining > 0) return;
    throw DomainError.tooManyRequests(
      now,
      state.reset - now / 1000,
      'too many failed token checks from this address, retry later',
      state.limit,
    );
  }

  /** Counts a failed check of `key` (429 when it is one too many, as a concurrent one may be). */
  recordFailure(key: string): Promise<void> {
    return this.limiter.consume(key);
  }
}
