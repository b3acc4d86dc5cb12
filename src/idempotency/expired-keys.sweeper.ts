import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { IdempotencyStore } from './idempotency-store';

const EVERY_TEN_MINUTES = 10 * 60 * 1000;
/** Rows one statement deletes, and statements one run makes: a run stays short whatever piled up. */
const BATCH = 1000;
const BATCHES_PER_RUN = 10;

/** Deletes the keys past their 24 hours (which already count as absent), a bounded number a run. */
@Injectable()
export class ExpiredKeysSweeper {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  @Interval('idempotency-key-sweep', EVERY_TEN_MINUTES)
  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (let i = 0; i < BATCHES_PER_RUN; i++) {
        const deleted = await this.store.deleteExpired(BATCH);
        total += deleted;
        if (deleted < BATCH) break;
      }
    } catch (err) {
      // The next run tries again; expired rows are ignored meanwhile.
      this.logger.warn(`sweeping expired idempotency keys failed: ${(err as Error).message}`);
    }
    return total;
  }
}
