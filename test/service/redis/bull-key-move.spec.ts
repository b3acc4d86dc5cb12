import { randomBytes } from 'node:crypto';
import Queue from 'bull';
import { RedisConnections } from '../../../src/redis';
import { deleteRedisKeys } from '../../support/isolation';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * An upgrade from the untagged Bull prefix: the jobs an earlier version queued (waiting and
 * delayed) are moved under the tagged prefix at start-up and run there, once.
 */
describe('moving Bull keys to the tagged prefix', () => {
  const prefix = `lltest:move:${randomBytes(4).toString('hex')}:`;
  afterAll(async () => {
    await deleteRedisKeys(prefix, url);
    await deleteRedisKeys(`{${prefix}`, url);
  });

  it('runs the jobs queued under the old prefix after the move, and a second move finds none', async () => {
    const old = new Queue('activity', url, { prefix: `${prefix}bull` });
    await old.add({ n: 1 }, { jobId: 'event-1' });
    await old.add({ n: 2 }, { jobId: 'event-2', delay: 200 });
    await old.close();

    const connections = new RedisConnections(url, prefix, { url, stop: async () => undefined });
    try {
      expect(await connections.moveUntaggedBullKeys()).toBeGreaterThan(0);
      expect(await connections.moveUntaggedBullKeys()).toBe(0);

      const moved = new Queue('activity', url, { prefix: connections.bullPrefix });
      try {
        const seen: unknown[] = [];
        const done = new Promise<void>((resolve) => {
          void moved.process(async (job) => {
            seen.push(job.id);
            if (seen.length === 2) setTimeout(resolve, 100);
          });
        });
        await done;
        expect(seen.sort()).toEqual(['event-1', 'event-2']);
        expect(await moved.getJobCounts()).toMatchObject({ waiting: 0, delayed: 0, completed: 2 });
      } finally {
        await moved.close();
      }
    } finally {
      await connections.close();
    }
  }, 30_000);
});
