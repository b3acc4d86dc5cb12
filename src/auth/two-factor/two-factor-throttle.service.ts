import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock, DomainError } from '../../common';
import { RedisConnections } from '../../redis';

export const MAX_TWO_FACTOR_FAILURES = 5;
export const TWO_FACTOR_WINDOW_MS = 15 * 60 * 1000;
export const TWO_FACTOR_LOCK_MS = 15 * 60 * 1000;

/**
 * Wrong second-factor codes, counted per account only: neither a correct password nor a new
 * client address resets them, since both are what an attacker holding the password controls.
 * MAX_TWO_FACTOR_FAILURES wrong codes within TWO_FACTOR_WINDOW_MS lock the account's second
 * factor for TWO_FACTOR_LOCK_MS: every code (even the right one) is refused with 429.
 */
@Injectable()
export class TwoFactorThrottle implements OnModuleDestroy {
  private readonly logger = new Logger(TwoFactorThrottle.name);
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(
    connections: RedisConnections,
    private readonly clock: Clock,
  ) {
    this.redis = connections.session();
    this.prefix = `${connections.prefix}2fa:`;
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  private failuresKey = (userId: string) => `${this.prefix}failures:${userId}`;
  private lockKey = (userId: string) => `${this.prefix}lock:${userId}`;

  /** 429 with `Retry-After` while the account's second factor is locked. */
  async assertAllowed(userId: string): Promise<void> {
    const remainingMs = await this.redis.pttl(this.lockKey(userId));
    if (remainingMs > 0) {
      throw DomainError.tooManyRequests(
        this.clock.nowMs(),
        remainingMs / 1000,
        'too many wrong codes: two-factor authentication is locked for this account',
        MAX_TWO_FACTOR_FAILURES,
      );
    }
  }

  async recordFailure(userId: string): Promise<void> {
    const now = this.clock.nowMs();
    const key = this.failuresKey(userId);
    const results = await this.redis
      .multi()
      .zremrangebyscore(key, 0, now - TWO_FACTOR_WINDOW_MS)
      .zadd(key, now, `${now}:${randomBytes(4).toString('hex')}`)
      .pexpire(key, TWO_FACTOR_WINDOW_MS)
      .zcard(key)
      .exec();
    const count = Number(results?.[3]?.[1] ?? 0);
    if (count >= MAX_TWO_FACTOR_FAILURES) {
      // The lock first, then the failures it replaces: two commands, as the keys may sit in
      // different slots of a Redis Cluster (failures left by a crash between them expire).
      await this.redis.set(this.lockKey(userId), '1', 'PX', TWO_FACTOR_LOCK_MS);
      await this.redis.del(key);
      this.logger.warn(
        `two-factor authentication of user ${userId} locked for ${TWO_FACTOR_LOCK_MS / 60000} minutes after ${count} wrong codes`,
      );
    }
  }

  /** A right code forgives earlier wrong ones (never a lock in force). */
  async reset(userId: string): Promise<void> {
    await this.redis.del(this.failuresKey(userId));
  }
}
