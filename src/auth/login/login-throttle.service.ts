import { randomBytes } from 'node:crypto';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { DomainError } from '../../common';
import { RedisConnections } from '../../redis';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

/**
 * Failed password checks (login, password change) per account and per client IP, as Redis sorted
 * sets of failure times (a true sliding window). With MAX_FAILURES in the last WINDOW_MS,
 * attempts are refused with 429 and `Retry-After` until the oldest of them leaves the window, even
 * with the right password. The IP is express's `req.ip`: X-Forwarded-For counts only behind a
 * proxy named by TRUST_PROXY, so a client cannot reset its count by inventing addresses.
 */
@Injectable()
export class LoginThrottle implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(connections: RedisConnections) {
    this.redis = connections.session();
    this.prefix = `${connections.prefix}login-failures:`;
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  private keys(account: string, ip: string) {
    return [`${this.prefix}account:${account}`, `${this.prefix}ip:${ip}`];
  }

  /** Throws 429 when the account or the IP is throttled. */
  async assertAllowed(account: string, ip: string): Promise<void> {
    const now = Date.now();
    let retryAfterMs = 0;
    for (const key of this.keys(account, ip)) {
      const [, [, count], [, oldest]] = (await this.redis
        .multi()
        .zremrangebyscore(key, 0, now - WINDOW_MS)
        .zcard(key)
        .zrange(key, -MAX_FAILURES, -MAX_FAILURES, 'WITHSCORES')
        .exec()) as [unknown, [unknown, number], [unknown, string[]]];
      if (count >= MAX_FAILURES && oldest.length === 2) {
        retryAfterMs = Math.max(retryAfterMs, Number(oldest[1]) + WINDOW_MS - now);
      }
    }
    if (retryAfterMs > 0) {
      throw DomainError.tooManyRequests(retryAfterMs / 1000, 'too many failed attempts');
    }
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const now = Date.now();
    const member = `${now}:${randomBytes(4).toString('hex')}`;
    const tx = this.redis.multi();
    for (const key of this.keys(account, ip)) {
      tx.zadd(key, now, member).pexpire(key, WINDOW_MS);
    }
    await tx.exec();
  }

  /** A successful login forgives the account's password failures (not the IP's). */
  async reset(account: string): Promise<void> {
    await this.redis.del(this.keys(account, '')[0]);
  }
}
