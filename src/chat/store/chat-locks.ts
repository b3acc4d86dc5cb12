import { randomBytes } from 'node:crypto';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { RedisConnections } from '../../redis';
import { repeatEvery } from '../../scheduler';
import { ChatApiError } from '../chat-api.error';

/** A holder's lease; renewed while it works, so a holder that died frees it this soon. */
const LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;
/** How long a caller waits for another holder (a session's provisioning takes seconds). */
const WAIT_MS = 30_000;
const POLL_MS = 50;

/** Deletes or extends the key only while it still holds the caller's own value. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;

/**
 * Locks that keep provisioning on the messaging server single across requests and instances,
 * as leases in Redis: held across the calls to the server, where a database transaction or
 * advisory lock must never be (issue 35). Should a lease lapse (a holder stalled past it), the
 * next holder relies on the server's own answers: a taken e-mail, team or channel name is found
 * and used, not made twice.
 */
@Injectable()
export class ChatLocks implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(connections: RedisConnections) {
    this.redis = connections.session();
    this.prefix = `${connections.prefix}chat:lock:`;
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /** Runs `work` holding the lock `key`; waits for another holder up to WAIT_MS. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const redisKey = `${this.prefix}${key}`;
    const owner = randomBytes(16).toString('hex');
    // Elapsed time, on the monotonic clock: a wait, not a time of day.
    const deadline = performance.now() + WAIT_MS;
    while ((await this.redis.set(redisKey, owner, 'PX', LEASE_MS, 'NX')) !== 'OK') {
      if (performance.now() > deadline) {
        throw new ChatApiError(
          0,
          'timeout',
          `${key}: still provisioned elsewhere after ${WAIT_MS} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS + Math.random() * POLL_MS));
    }
    const stopRenewing = repeatEvery(RENEW_EVERY_MS, () => {
      this.redis.eval(RENEW, 1, redisKey, owner, LEASE_MS).catch(() => undefined);
    });
    try {
      return await work();
    } finally {
      stopRenewing();
      // A lease that could not be released lapses by itself.
      await this.redis.eval(RELEASE, 1, redisKey, owner).catch(() => undefined);
    }
  }
}

/** An organization's team and channels. */
export const organizationLock = (organizationId: string) => `organization:${organizationId}`;
/** A user's chat account and token. */
export const userLock = (userId: string) => `user:${userId}`;
/** A member's place in the team and its private channel (taken before a user's, never after). */
export const memberLock = (organizationId: string, userId: string) =>
  `member:${organizationId}:${userId}`;
