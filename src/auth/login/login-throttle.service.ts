import { randomBytes } from 'node:crypto';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';

/** Failures allowed per account within WINDOW_MS. */
export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

/**
 * Failed password checks (login, password change) per account and per client IP, as Redis sorted
 * sets of failure times (a true sliding window). With MAX_FAILURES failures of one account, or
 * LOGIN_IP_FAILURE_LIMIT (default 100) from one IP, in the last WINDOW_MS, attempts for that
 * account, or from that IP, are refused with 429 and `Retry-After` until the oldest failure that
 * counts leaves the window, even with the right password. The IP limit is the higher one: many
 * users share an address behind NAT, and one client guessing passwords for many accounts must
 * not lock out every account at its address after a few failures. The IP is express's `req.ip`:
 * X-Forwarded-For counts only behind a proxy named by TRUST_PROXY, so a client cannot reset its
 * count by inventing addresses.
 */
@Injectable()
export class LoginThrottle implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly ipLimit: number;

  constructor(
    connections: RedisConnections,
    env: Env,
    private readonly clock: Clock,
  ) {
    this.redis = connections.session();
    this.prefix = `${connections.prefix}login-failures:`;
    this.ipLimit = env.LOGIN_IP_FAILURE_LIMIT;
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  private accountKey = (account: string) => `${this.prefix}account:${account}`;
  private ipKey = (ip: string) => `${this.prefix}ip:${ip}`;

  /** The counters of an attempt, each with its own limit. */
  private counters(account: string, ip: string): [key: string, limit: number][] {
    return [
      [this.accountKey(account), MAX_FAILURES],
      [this.ipKey(ip), this.ipLimit],
    ];
  }

  /** Throws 429 when the account or the IP is throttled. */
  async assertAllowed(account: string, ip: string): Promise<void> {
    const now = this.clock.nowMs();
    let retryAfterMs = 0;
    let reached = 0;
    for (const [key, limit] of this.counters(account, ip)) {
      // The limit-th most recent failure: when it leaves the window, fewer than `limit` remain.
      const [, [, count], [, oldest]] = (await this.redis
        .multi()
        .zremrangebyscore(key, 0, now - WINDOW_MS)
        .zcard(key)
        .zrange(key, -limit, -limit, 'WITHSCORES')
        .exec()) as [unknown, [unknown, number], [unknown, string[]]];
      if (count >= limit && oldest.length === 2) {
        const wait = Number(oldest[1]) + WINDOW_MS - now;
        if (wait > retryAfterMs) [retryAfterMs, reached] = [wait, limit];
      }
    }
    if (retryAfterMs > 0) {
      throw DomainError.tooManyRequests(
        now,
        retryAfterMs / 1000,
        'too many failed attempts',
        reached,
      );
    }
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const now = this.clock.nowMs();
    const member = `${now}:${randomBytes(4).toString('hex')}`;
    // One transaction per counter: the account's and the IP's keys may sit in different slots of
    // a Redis Cluster.
    await Promise.all(
      this.counters(account, ip).map(([key]) =>
        this.redis.multi().zadd(key, now, member).pexpire(key, WINDOW_MS).exec(),
      ),
    );
  }

  /** A successful login forgives the account's password failures (not the IP's). */
  async reset(account: string): Promise<void> {
    await this.redis.del(this.accountKey(account));
  }
}
