import type { Agent } from 'supertest';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity } from '../../support/cap-table';
import { Instance, startInstance, stopAll, waitUntilReady } from '../../support/instances';
import { deleteRedisKeys, testRedisPrefix } from '../../support/isolation';
import { createOrg } from '../../support/orgs';
import { randomIp, registerUser } from '../../support/users';

/**
 * What the fault tests of this folder share: instances of the service as child processes on one
 * database and one Redis prefix, and an in-process app on the same database (its own Redis
 * prefix, its relay off, so it takes no job of theirs) that reads the tables and verifies the
 * ledger for the test.
 */
export interface Cluster {
  /** The in-process app: registers users, reads the database, runs `verifyLedger`. */
  control: TestApp;
  db: DataSource;
  /** The Redis prefix of the instances (sessions, queues). */
  redisPrefix: string;
  /** Starts one more instance on the cluster's settings and the extra ones given. */
  start(extra?: Record<string, string>): Promise<Instance>;
  close(): Promise<void>;
}

export async function startCluster(
  options: { env?: Record<string, string>; redisUrl?: string } = {},
): Promise<Cluster> {
  const control = await createTestApp({ env: { OUTBOX_RELAY_INTERVAL_MS: '0' } });
  const redisPrefix = testRedisPrefix();
  const started: Instance[] = [];
  // process.env holds the control app's settings (setTestEnv): the instances inherit the
  // secrets, FRONTEND_URL and TRUST_PROXY, and get the database, Redis and relay named here.
  const base = {
    DATABASE_URL: control.database.url,
    REDIS_PREFIX: redisPrefix,
    OUTBOX_RELAY_INTERVAL_MS: '50',
    // A killed instance's active jobs are taken up within seconds, not a minute.
    QUEUE_LOCK_MS: '10000',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.env,
  };
  return {
    control,
    db: control.get(DataSource),
    redisPrefix,
    async start(extra = {}) {
      // Kept before it is ready: one that never gets there is stopped with the others.
      const instance = await startInstance({ ...base, ...extra }, { waitReady: false });
      started.push(instance);
      // Each instance compiles the service (ts-node) on start: slow on a loaded machine.
      await waitUntilReady(instance, 180_000);
      return instance;
    },
    async close() {
      await stopAll(started);
      await deleteRedisKeys(redisPrefix, options.redisUrl ?? process.env.REDIS_URL);
      await control.close();
    },
  };
}

/** A session cookie, usable on any instance of the cluster (sessions live in Redis). */
export class CookieSession {
  constructor(
    readonly cookie: string,
    readonly ip: string,
  ) {}

  /** Logs in on `instance` (the user made by the control app, verified). */
  static async logIn(instance: Instance, email: string, password: string): Promise<CookieSession> {
    const ip = randomIp();
    const res = await request(instance.url)
      .post('/v1/user/login')
      .set('X-Forwarded-For', ip)
      .send({ email, password });
    if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
    return new CookieSession(sessionCookieOf(res.headers['set-cookie'])!, ip);
  }

  /**
   * A supertest-like client of `instance` sending the cookie (no Origin: a caller the CSRF
   * guard lets through, as the tests' agents), for the helpers that take an `Agent`.
   */
  on(instance: Instance): Agent {
    const send = (method: 'get' | 'post' | 'put' | 'patch' | 'delete') => (path: string) =>
      request(instance.url)
        [method](path)
        .set('Cookie', this.cookie)
        .set('X-Forwarded-For', this.ip);
    return {
      get: send('get'),
      post: send('post'),
      put: send('put'),
      patch: send('patch'),
      delete: send('delete'),
    } as unknown as Agent;
  }
}

/** `connect.sid=<value>` from a response's Set-Cookie headers, if it sets one. */
export function sessionCookieOf(setCookie: string[] | string | undefined): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.find((c) => c.startsWith('connect.sid='))?.split(';')[0];
}

/**
 * A verified user logged in on `instance`, owner of a new organization with one share class
 * (`authorizedShares`) and `holders` members without accounts.
 */
export async function ownerWithCapTable(
  cluster: Cluster,
  instance: Instance,
  options: { authorizedShares?: string; holders?: number } = {},
) {
  const user = await registerUser(cluster.control);
  const session = await CookieSession.logIn(instance, user.email, user.password);
  const agent = session.on(instance);
  const org = await createOrg(agent, 'Fault Inc.');
  const security = await createSecurity(agent, org.id, {
    authorizedShares: options.authorizedShares ?? '10000000',
  });
  const holders: { id: string; entity: string }[] = [];
  for (let i = 0; i < (options.holders ?? 4); i++) {
    holders.push(await createHolder(agent, org.id, `Holder ${i}`));
  }
  return { user, session, org, security, holders };
}

/** Rows of the organization's outbox by event type. */
export async function eventCounts(db: DataSource, orgId: string): Promise<Record<string, number>> {
  const rows = (await db.query(
    `SELECT type, count(*)::int AS n FROM outbox_event WHERE organization_id = $1 GROUP BY type`,
    [orgId],
  )) as { type: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.type, r.n]));
}

/** Rows of the organization's ledger log by transaction type. */
export async function logCounts(db: DataSource, orgId: string): Promise<Record<string, number>> {
  const rows = (await db.query(
    `SELECT type, count(*)::int AS n FROM equity_transaction WHERE organization_id = $1 GROUP BY type`,
    [orgId],
  )) as { type: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.type, r.n]));
}

/**
 * The organization's events not yet delivered to the activity log (every event of an
 * organization becomes one entry), or not yet relayed.
 */
export async function undelivered(db: DataSource, orgId: string): Promise<string[]> {
  const rows = (await db.query(
    `SELECT e.id FROM outbox_event e
     WHERE e.organization_id = $1 AND e.type NOT LIKE 'billing.%'
       AND (e.relayed_at IS NULL
            OR NOT EXISTS (SELECT 1 FROM activity_action a WHERE a.event_id = e.id))`,
    [orgId],
  )) as { id: string }[];
  return rows.map((r) => r.id);
}
