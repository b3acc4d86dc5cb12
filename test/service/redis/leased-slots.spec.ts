import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import Redis from 'ioredis';
import { LeasedSlots } from '../../../src/common/http/leased-slots';
import { TestClock } from '../../support/clock';
import { deleteRedisKeys } from '../../support/isolation';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LEASE = 60_000;

/** Places on a lease in Redis (the upload slots' counter), on a clock the test moves. */
describe('LeasedSlots', () => {
  const prefix = `lltest:leases:${randomBytes(4).toString('hex')}:`;
  const clock = new TestClock();
  let redis: Redis;
  let slots: LeasedSlots;
  beforeAll(async () => {
    redis = new Redis(url);
    await once(redis, 'ready');
    slots = new LeasedSlots(redis, prefix, clock);
  });
  afterAll(async () => {
    redis.disconnect();
    await deleteRedisKeys(prefix, url);
  });

  it('holds at most the limit; a release frees a place', async () => {
    expect(await slots.acquire('u1', 'a', 2, LEASE)).toBe(true);
    expect(await slots.acquire('u1', 'b', 2, LEASE)).toBe(true);
    expect(await slots.acquire('u1', 'c', 2, LEASE)).toBe(false);
    // Another holder counts on its own.
    expect(await slots.acquire('u2', 'a', 2, LEASE)).toBe(true);
    await slots.release('u1', 'a');
    expect(await slots.held('u1')).toBe(1);
    expect(await slots.acquire('u1', 'c', 2, LEASE)).toBe(true);
  });

  it('a renewed place outlives its first lease; one not renewed lapses, and frees its place', async () => {
    expect(await slots.acquire('u3', 'renewed', 2, LEASE)).toBe(true);
    expect(await slots.acquire('u3', 'abandoned', 2, LEASE)).toBe(true);
    clock.advance(LEASE / 2);
    expect(await slots.renew('u3', 'renewed', LEASE)).toBe(true);
    clock.advance(LEASE / 2 + 1000);
    expect(await slots.held('u3')).toBe(1);
    // The lapsed one is dropped when a place is asked for.
    expect(await slots.acquire('u3', 'next', 2, LEASE)).toBe(true);
    expect(await slots.renew('u3', 'abandoned', LEASE)).toBe(false);
    expect(await slots.held('u3')).toBe(2);
  });
});
