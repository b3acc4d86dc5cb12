import Bull from 'bull';
import Redis from 'ioredis';
import request from 'supertest';
import { QueueName } from '../../../src/events/queues';
import { issue } from '../../support/cap-table';
import { eventually, sleep } from '../../support/eventually';
import type { Instance } from '../../support/instances';
import { RedisProcess } from '../../support/redis-process';
import { TcpProxy } from '../../support/tcp-proxy';
import {
  Cluster,
  CookieSession,
  ownerWithCapTable,
  sessionCookieOf,
  startCluster,
  undelivered,
} from './fault-fixtures';

/**
 * Two instances (child processes) on a private Redis, A reaching PostgreSQL through a proxy the
 * test cuts: Redis killed and restarted under load, and A's database connections lost, each
 * recovered from without restarting an instance.
 */
describe('outages of Redis and PostgreSQL under two instances', () => {
  const redis = new RedisProcess();
  let proxy: TcpProxy;
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    await redis.start();
    cluster = await startCluster({ redisUrl: redis.url });
    proxy = TcpProxy.forUrl(cluster.control.database.url);
    await proxy.start();
    [a, b] = await Promise.all([
      cluster.start({ DATABASE_URL: proxy.rewrite(cluster.control.database.url) }),
      cluster.start(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await cluster?.close();
    await proxy?.close();
    await redis.kill();
  }, 30_000);

  /**
   * The prefix of the instances' Bull keys, as found in Redis (`<REDIS_PREFIX>bull`, or with a
   * hash tag around it where Bull's keys must share a Redis Cluster slot): the key of the
   * activity queue's job counter, made by the first job relayed to it.
   */
  const bullPrefix = () =>
    eventually(async () => {
      const client = new Redis(redis.url);
      try {
        const [, keys] = await client.scan(
          '0',
          'MATCH',
          `*${cluster.redisPrefix}bull*:${QueueName.Activity}:id`,
          'COUNT',
          10_000,
        );
        return keys[0]?.slice(0, -`:${QueueName.Activity}:id`.length);
      } finally {
        client.disconnect();
      }
    }, 20_000);

  /** The instances' Bull queue, from the test: to hold its jobs in Redis, then let them go. */
  const queue = async (name: QueueName) =>
    new Bull(name, redis.url, { prefix: await bullPrefix() });

  interface Seen {
    instance: string;
    status: number;
    body: unknown;
    cookie?: string;
  }

  /** Reads the session on both instances, four at a time, until `stop`; every answer kept. */
  function load(session: CookieSession) {
    const seen: Seen[] = [];
    let stopped = false;
    const loop = async (instance: Instance, name: string) => {
      while (!stopped) {
        try {
          const res = await session.on(instance).get('/v1/user/session').timeout(10_000);
          seen.push({
            instance: name,
            status: res.status,
            body: res.body,
            cookie: sessionCookieOf(res.headers['set-cookie']),
          });
        } catch (err) {
          seen.push({ instance: name, status: 0, body: String(err) });
        }
        await sleep(25);
      }
    };
    const loops = [loop(a, 'A'), loop(b, 'B'), loop(a, 'A'), loop(b, 'B')];
    return {
      seen,
      async stop() {
        stopped = true;
        await Promise.all(loops);
        return seen;
      },
    };
  }

  it('Redis killed under load: 503 where a session is needed, no session replaced, then recovery, and the jobs queued before it run', async () => {
    const world = await ownerWithCapTable(cluster, a);
    const { org, security, holders, session } = world;
    const userId = world.user.user.id;
    // The cookie made on A works on B.
    const onB = await session.on(b).get('/v1/user/session');
    expect(onB.status).toBe(200);
    expect(onB.body.user.id).toBe(userId);

    // Events relayed into the activity queue, held there (the queue paused for every worker).
    const activity = await queue(QueueName.Activity);
    await activity.pause();
    for (let i = 0; i < 3; i++) {
      await issue(session.on(b), org.id, {
        member: holders[i].id,
        security: security.id,
        quantity: 10,
      });
    }
    await eventually(
      async () =>
        (
          await cluster.db.query(
            `SELECT count(*)::int AS n FROM outbox_event
             WHERE organization_id = $1 AND type = 'shareholding.created' AND relayed_at IS NOT NULL`,
            [org.id],
          )
        )[0].n === 3,
      30_000,
      100,
    );
    const held = await undelivered(cluster.db, org.id);
    expect(held.length).toBeGreaterThanOrEqual(3);
    const counts = await activity.getJobCounts();
    expect(counts.waiting + (counts as { paused?: number }).paused!).toBeGreaterThanOrEqual(
      held.length,
    );
    await activity.close();

    const reads = load(session);
    await sleep(500);
    await redis.kill();
    // A write while Redis is away: the session cannot be read, 503 with the one error body.
    await eventually(
      async () => (await session.on(a).get('/v1/user/session').timeout(10_000)).status === 503,
      20_000,
      100,
    );
    const write = await session
      .on(b)
      .post(`/v1/organization/${org.id}/shareholding`)
      .send({
        member: holders[0].id,
        security: security.id,
        quantity: '1',
        issueDate: '2024-01-15',
      })
      .timeout(10_000);
    expect(write.status).toBe(503);
    expect(write.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
    expect(write.headers['set-cookie']).toBeUndefined();
    await request(a.url).get('/health').expect(503);
    await sleep(1500);

    await redis.start();
    // Both instances recover by themselves: the same session, the same user.
    await eventually(
      async () =>
        (await session.on(a).get('/v1/user/session')).status === 200 &&
        (await session.on(b).get('/v1/user/session')).status === 200,
      30_000,
      200,
    );
    await sleep(500);
    const seen = await reads.stop();
    const down = seen.filter((s) => s.status === 503);
    const up = seen.filter((s) => s.status === 200);
    expect(down.length).toBeGreaterThan(0);
    expect(up.length).toBeGreaterThan(0);
    // Nothing but the session's answer or 503; never 401 (a session lost), never a new session.
    expect(seen.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);
    for (const s of down) {
      expect(s.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
      expect(s.cookie).toBeUndefined();
    }
    for (const s of up) expect((s.body as { user: { id: string } }).user.id).toBe(userId);
    for (const s of seen.filter((x) => x.cookie)) expect(s.cookie).toBe(session.cookie);
    await request(a.url).get('/health').expect(200);
    await request(b.url).get('/health').expect(200);

    // The jobs held through the restart run once the queue is let go; and new writes flow.
    const resumed = await queue(QueueName.Activity);
    try {
      await resumed.resume();
    } finally {
      await resumed.close();
    }
    await issue(session.on(a), org.id, {
      member: holders[3].id,
      security: security.id,
      quantity: 10,
    });
    await eventually(async () => (await undelivered(cluster.db, org.id)).length === 0, 30_000, 200);
  }, 120_000);

  it('PostgreSQL connections of A cut: 503 databaseMissing on A while B serves, then A recovers without a restart', async () => {
    const world = await ownerWithCapTable(cluster, b);
    const { org, security, holders, session } = world;
    const list = (instance: Instance) =>
      session.on(instance).get(`/v1/organization/${org.id}/shareholding`).timeout(20_000);
    await list(a).expect(200);

    proxy.cut();
    try {
      for (const res of [
        await list(a),
        await session.on(a).get('/v1/user/session').timeout(20_000),
        await session
          .on(a)
          .post(`/v1/organization/${org.id}/shareholding`)
          .send({
            member: holders[0].id,
            security: security.id,
            quantity: '5',
            issueDate: '2024-01-15',
          })
          .timeout(20_000),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual({
          status: 503,
          body: {
            error: 'Service Unavailable',
            key: 'databaseMissing',
            message: expect.any(String),
          },
        });
      }
      await request(a.url).get('/health').expect(503);
      // The other instance, on its own connections, is not affected.
      await list(b).expect(200);
    } finally {
      proxy.restore();
    }

    await eventually(async () => (await list(a)).status === 200, 30_000, 200);
    await request(a.url).get('/health').expect(200);
    const made = await issue(session.on(a), org.id, {
      member: holders[1].id,
      security: security.id,
      quantity: 5,
    });
    // Nothing of the refused write was kept: the one issuance is the one made after.
    const rows = await cluster.db.query(`SELECT id FROM shareholding WHERE organization_id = $1`, [
      org.id,
    ]);
    expect(rows).toEqual([{ id: made.id }]);
  }, 90_000);
});
