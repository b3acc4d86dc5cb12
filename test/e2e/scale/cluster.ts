import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Pool } from 'pg';
import request from 'supertest';
import { createTestDatabase, TEST_FRONTEND_URL, TestDatabase } from '../../support/app';
import { Instance, startInstance } from '../../support/instances';
import { deleteRedisKeys, TEST_SECRETS, testRedisPrefix } from '../../support/isolation';
import type { RedisProcess } from '../../support/redis-process';
import { randomIp } from '../../support/users';

/**
 * Two (or more) instances of the service as child processes on one test database and one Redis
 * (a private `RedisProcess` the test may kill, or the shared one under a prefix of their own),
 * with the same secrets, like pods behind a load balancer.
 */
export interface Cluster {
  readonly database: TestDatabase;
  /** The test's own connection to the instances' database. */
  readonly db: Pool;
  readonly instances: Instance[];
  /** Starts instance `i` again (after it was killed) on the same settings. */
  restart(i: number): Promise<Instance>;
  close(): Promise<void>;
}

export async function startCluster(
  options: { count?: number; redis?: RedisProcess; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const database = await createTestDatabase();
  const prefix = testRedisPrefix();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    ...(options.redis ? { REDIS_URL: options.redis.url } : { REDIS_PREFIX: prefix }),
    FRONTEND_URL: TEST_FRONTEND_URL,
    ...TEST_SECRETS,
    OUTBOX_RELAY_INTERVAL_MS: '50',
    // A killed instance's active jobs are taken up within seconds, not a minute.
    QUEUE_LOCK_MS: '10000',
    TRUST_PROXY: 'loopback',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    ...options.env,
  };
  const db = new Pool({ connectionString: database.url, max: 4 });
  const instances = await Promise.all(
    Array.from({ length: options.count ?? 2 }, () =>
      startInstance(env, { readyTimeoutMs: 120_000 }),
    ),
  );
  return {
    database,
    db,
    instances,
    async restart(i) {
      await instances[i].stop('SIGKILL');
      instances[i] = await startInstance(env, { readyTimeoutMs: 120_000 });
      return instances[i];
    },
    async close() {
      await Promise.all(instances.map((i) => i.stop('SIGKILL')));
      await db.end();
      await database.drop();
      if (!options.redis) await deleteRedisKeys(prefix);
    },
  };
}

/** A browser's session: the cookie of a login, sent to whichever instance a request goes to. */
export class Session {
  constructor(
    readonly cookie: string,
    readonly email: string,
    /** The logged-in user as the login answered it. */
    readonly user: { id: string; entityId: string },
  ) {}

  to(instance: Instance) {
    const r = request(instance.url);
    const withCookie = <T extends { set(name: string, value: string): T }>(req: T) =>
      req.set('Cookie', this.cookie);
    return {
      get: (path: string) => withCookie(r.get(path)),
      post: (path: string) => withCookie(r.post(path)),
      patch: (path: string) => withCookie(r.patch(path)),
      put: (path: string) => withCookie(r.put(path)),
      delete: (path: string) => withCookie(r.delete(path)),
    };
  }
}

/** Registers a user on `instance` (the address marked verified in the database) and logs in there. */
export async function registerAndLogIn(
  cluster: Cluster,
  instance: Instance,
  options: { referralCode?: string } = {},
): Promise<Session> {
  const tag = randomBytes(5).toString('hex');
  const email = `user-${tag}@example.test`;
  const password = `Ledgerline-test-${tag}`;
  const registered = await instance.http
    .post('/v1/user')
    .set('X-Forwarded-For', randomIp())
    .send({ email, password, name: `Scale ${tag}`, referralCode: options.referralCode });
  if (registered.status !== 201) {
    throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  }
  await cluster.db.query(`UPDATE user_account SET email_verified = true WHERE id = $1`, [
    registered.body.user.id,
  ]);
  return logInOn(instance, email, password);
}

export async function logInOn(instance: Instance, email: string, password: string) {
  const res = await instance.http.post('/v1/user/login').send({ email, password });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return new Session(cookies.map((c) => c.split(';')[0]).join('; '), email, res.body.user);
}

/**
 * The instance whose process owns the local TCP port `port` (the client side of a connection it
 * made), read from /proc: which instance sent a request the fake received.
 */
export function instanceOwningPort(instances: Instance[], port: number): Instance | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[] = [];
    try {
      lines = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = parseInt(cols[1].split(':')[1], 16);
      if (localPort === port) inodes.add(cols[9]);
    }
  }
  return instances.find((instance) => {
    const pid = instance.child.pid;
    if (!pid) return false;
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
          const m = /^socket:\[(\d+)\]$/.exec(target);
          return m !== null && inodes.has(m[1]);
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}
