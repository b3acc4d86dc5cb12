import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Env } from '../../config';
import { DomainError, rateLimitHeaders } from '../errors/domain-error';
import { Clock } from '../time/clock';

/**
 * How many uploads each user has in progress in this process, at most UPLOAD_CONCURRENCY_PER_USER:
 * every upload may hold its files in memory up to the size limit, so one account must not be able
 * to hold many of them open at once. Counted in process (not in Redis), so a crashed instance
 * leaves no place taken for ever.
 */
@Injectable()
export class UploadSlots {
  private readonly inProgress = new Map<string, number>();

  constructor(
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes one of the user's places until the response is over: sent, failed, or its connection
   * dropped by the client. 429 `tooManyUploads` when all are taken.
   */
  take(userId: string, res: Response): void {
    const limit = this.env.UPLOAD_CONCURRENCY_PER_USER;
    const held = this.inUse(userId);
    if (held >= limit) {
      // When one of them ends is not known: a second is the least a retry should wait.
      throw DomainError.keyed(
        'tooManyUploads',
        `at most ${limit} uploads at a time per user; retry when one has finished`,
        { headers: rateLimitHeaders(this.clock.nowMs(), 1, limit) },
      );
    }
    this.inProgress.set(userId, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = this.inUse(userId) - 1;
      if (left > 0) this.inProgress.set(userId, left);
      else this.inProgress.delete(userId);
    };
    // 'close' follows 'finish', and also comes alone when the client goes away mid-upload.
    res.once('finish', release);
    res.once('close', release);
  }

  inUse(userId: string): number {
    return this.inProgress.get(userId) ?? 0;
  }
}
