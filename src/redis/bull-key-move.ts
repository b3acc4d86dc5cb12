import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';

/** Keys one SCAN step returns at most. */
const SCAN_COUNT = 1000;

/**
 * Moves Bull's keys from the untagged prefix of earlier versions (`<REDIS_PREFIX>bull:`) to the
 * hash-tagged one (`{<REDIS_PREFIX>bull}:`), so jobs queued before an upgrade (waiting, delayed,
 * retrying) are still run after it. A job's data names no prefix, so a rename is the whole move.
 * RENAMENX leaves a key alone when the tagged one exists, and a key another instance moved first
 * is gone: both are skipped. Runs at start-up (main.ts), before the workers start; keys an
 * instance of the old version queues after that are moved by the next start (docs/scale.md).
 */
export async function moveUntaggedBullKeys(
  client: Redis,
  untagged: string,
  tagged: string,
): Promise<number> {
  let moved = 0;
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${untagged}:*`, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (const key of keys) {
      const target = tagged + key.slice(untagged.length);
      moved += await client.renamenx(key, target).catch(() => 0);
    }
  } while (cursor !== '0');
  if (moved) new Logger('Redis').log(`Moved ${moved} Bull key(s) to the tagged prefix ${tagged}`);
  return moved;
}
