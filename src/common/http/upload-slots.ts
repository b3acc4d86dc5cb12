import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import type Redis from 'ioredis';
import { Env } from '../../config';
import { DomainError, rateLimitHeaders } from '../errors/domain-error';
import { Clock } from '../time/clock';
import { repeatEvery } from '../time/repeat';
import { LeasedSlots } from './leased-slots';
import { SHARED_REDIS, SharedRedis } from './shared-redis';

/**
 * How long a place counts without news from its instance. The instance renews it every third of
 * that while the upload is open, however slow the upload; a crashed instance stops renewing, so
 * its places are free again at most this long after the crash.
 */
export const UPLOAD_LEASE_MS = 60_000;
const RENEW_EVERY_MS = UPLOAD_LEASE_MS / 3;

/**
 * How many uploads each user has in progress, at most UPLOAD_CONCURRENCY_PER_USER across every
 * instance: every upload may hold its files in memory up to the size limit, so one account must
 * not be able to hold many of them open at once. Counted in Redis (`LeasedSlots`), each place on
 * a lease renewed while its upload lasts, so a crashed instance leaves no place taken for long.
 */
@Injectable()
export class UploadSlots implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly slots: LeasedSlots;

  constructor(
    private readonly env: Env,
    private readonly clock: Clock,
    @Inject(SHARED_REDIS) shared: SharedRedis,
  ) {
    this.redis = shared.session();
    this.slots = new LeasedSlots(this.redis, `${shared.prefix}upload-slots:`, clock);
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /**
   * Takes one of the user's places until the response is over: sent, failed, or its connection
   * dropped by the client. 429 `tooManyUploads` when all are taken; 503 while Redis is down.
   */
  async take(userId: string, res: Response): Promise<void> {
    // Listening from the start: the client may go away while the place is being taken.
    let over = false;
    let release = () => void (over = true);
    const end = () => release();
    // 'close' follows 'finish', and also comes alone when the client goes away mid-upload.
    res.once('finish', end);
    res.once('close', end);
    const stopListening = () => res.off('finish', end).off('close', end);
    const limit = this.env.UPLOAD_CONCURRENCY_PER_USER;
    const id = randomUUID();
    let taken: boolean;
    try {
      taken = await this.slots.acquire(userId, id, limit, UPLOAD_LEASE_MS);
    } catch {
      stopListening();
      throw DomainError.serviceUnavailable('the upload counter (Redis) is unavailable');
    }
    if (!taken) {
      stopListening();
      // When one of them ends is not known: a second is the least a retry should wait.
      throw DomainError.keyed(
        'tooManyUploads',
        `at most ${limit} uploads at a time per user; retry when one has finished`,
        { headers: rateLimitHeaders(this.clock.nowMs(), 1, limit) },
      );
    }
    const stopRenewing = repeatEvery(
      RENEW_EVERY_MS,
      () => void this.slots.renew(userId, id, UPLOAD_LEASE_MS).catch(() => undefined),
    );
    let released = false;
    release = () => {
      if (released) return;
      released = true;
      stopRenewing();
      // A release lost (Redis down) costs the user the place until its lease ends.
      void this.slots.release(userId, id).catch(() => undefined);
    };
    if (over) release();
  }

  /** The user's uploads in progress, on every instance. */
  inUse(userId: string): Promise<number> {
    return this.slots.held(userId);
  }
}
