import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import Queue from 'bull';
import type Redis from 'ioredis';
import type { Response } from 'express';
import { LoginThrottle } from '../../../src/auth/login/login-throttle.service';
import { RollingRedisStore } from '../../../src/auth/sessions/rolling-redis-store';
import { SessionRegistry } from '../../../src/auth/sessions/session-registry.service';
import { TwoFactorThrottle } from '../../../src/auth/two-factor/two-factor-throttle.service';
import { Clock, RateLimiter, UploadSlots } from '../../../src/common';
import type { Env } from '../../../src/config';
import { RedisConnections } from '../../../src/redis';
import { keySlot, SlotLog, watchSlots } from '../../support/cluster-slots';
import { deleteRedisKeys } from '../../support/isolation';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Redis Cluster readiness: every command and transaction of the sessions, the scheduler's turns,
 * the limits and the upload slots touches keys of one slot, and Bull's keys share one hash tag.
 * Run against a plain Redis, each command watched as a cluster would take it.
 */
describe('Redis Cluster: one slot per command', () => {
  const prefix = `lltest:slots:${randomBytes(4).toString('hex')}:`;
  let log: SlotLog;
  let connections: RedisConnections;
  const clients: Redis[] = [];

  beforeEach(() => {
    log = { commands: [], crossSlot: [] };
    connections = new RedisConnections(url, prefix, { url, stop: async () => undefined });
    const create = (connections as unknown as { create: (o: object) => Redis }).create.bind(
      connections,
    );
    (connections as unknown as { create: (o: object) => Redis }).create = (options: object) => {
      const client = watchSlots(create(options), log);
      clients.push(client);
      return client;
    };
  });
  afterEach(async () => {
    await connections.close();
    clients.length = 0;
  });
  afterAll(() => deleteRedisKeys(prefix, url));

  /** The request-path clients refuse commands until connected (no offline queue). */
  const connected = () =>
    Promise.all(clients.map((c) => (c.status === 'ready' ? null : once(c, 'ready'))));

  it('computes slots as Redis Cluster does', () => {
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('123456789')).toBe(12739);
    expect(keySlot('{user1000}.following')).toBe(keySlot('{user1000}.followers'));
    expect(keySlot('{}.a')).not.toBe(keySlot('{}.b'));
  });

  it('gives Bull’s prefix a hash tag: every key of every queue in one slot', () => {
    expect(connections.bullPrefix).toBe(`{${prefix}bull}`);
    const slots = ['activity:wait', 'activity:42', 'webhooks:active', 'webhooks:id'].map((k) =>
      keySlot(`${connections.bullPrefix}:${k}`),
    );
    expect(new Set(slots).size).toBe(1);
  });

  async function runQueue(queuePrefix: string) {
    const queue = new Queue(`slots-${randomUUID()}`, {
      prefix: queuePrefix,
      createClient: (type) => connections.bull(type),
    });
    try {
      void queue.process(async (job) => ({ doubled: (job.data as { n: number }).n * 2 }));
      const job = await queue.add({ n: 21 }, { attempts: 2, removeOnComplete: false });
      expect(await job.finished()).toEqual({ doubled: 42 });
      await queue.getJobCounts();
    } finally {
      await queue.close();
    }
  }

  it('runs a Bull queue under the tagged prefix with no command across slots', async () => {
    await runQueue(connections.bullPrefix);
    expect(log.commands.filter((c) => c.includes(connections.bullPrefix)).length).toBeGreaterThan(
      5,
    );
    expect(log.crossSlot).toEqual([]);
  });

  it('(the check bites: the untagged prefix of before spans slots)', async () => {
    await runQueue(`${prefix}bull`);
    expect(log.crossSlot.length).toBeGreaterThan(0);
  });

  it('sessions, turns, throttles, rate limits and upload slots touch one slot per command', async () => {
    const clock = new Clock();
    const env = {
      API_SESSION_MAX_AGE: 60_000,
      LOGIN_IP_FAILURE_LIMIT: 100,
      UPLOAD_CONCURRENCY_PER_USER: 2,
    } as Env;
    const registry = new SessionRegistry(connections, env);
    const store = new RollingRedisStore(connections.session(), `${prefix}sess:`, 60_000);
    const login = new LoginThrottle(connections, env, clock);
    const twoFactor = new TwoFactorThrottle(connections, clock);
    const limiter = new RateLimiter(
      connections.session(),
      `${prefix}requests:`,
      { limit: 2, windowMs: 60_000 },
      clock,
    );
    const uploads = new UploadSlots(env, clock, connections);
    await connected();

    const user = randomUUID();
    for (const sid of ['s1', 's2', 's3']) {
      await store.set(sid, { cookie: { originalMaxAge: 60_000 } } as never);
      await registry.add(user, sid);
    }
    expect(await store.get('s1')).toBeTruthy();
    expect(await registry.endAllExcept(user, 's1')).toBe(2);
    expect(await store.get('s2')).toBeNull();
    await store.destroy('s1');

    for (let i = 0; i < 5; i++) await login.recordFailure('ada@example.test', '10.0.0.1');
    await login.assertAllowed('ada@example.test', '10.0.0.1');
    await login.reset('ada@example.test');
    for (let i = 0; i < 5; i++) await twoFactor.recordFailure(user);
    await expect(twoFactor.assertAllowed(user)).rejects.toMatchObject({ status: 429 });

    await limiter.take('ip:10.0.0.1');
    await limiter.take('ip:10.0.0.1');
    await expect(limiter.take('ip:10.0.0.1')).rejects.toMatchObject({ status: 429 });

    const response = new EventEmitter() as unknown as Response;
    await uploads.take(user, response);
    expect(await uploads.inUse(user)).toBe(1);
    response.emit('finish');
    await new Promise((r) => setTimeout(r, 50));
    expect(await uploads.inUse(user)).toBe(0);

    expect(await connections.claimTurn('sweep:1', 60_000)).toBe(true);
    expect(await connections.claimTurn('sweep:1', 60_000)).toBe(false);

    expect(log.commands.length).toBeGreaterThan(30);
    expect(log.commands.some((c) => c.startsWith('evalsha') || c.startsWith('eval'))).toBe(true);
    expect(log.crossSlot).toEqual([]);
    for (const service of [registry, login, twoFactor, uploads]) service.onModuleDestroy();
  });
});
