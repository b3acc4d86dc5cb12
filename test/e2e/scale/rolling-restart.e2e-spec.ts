import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { ShutdownState } from '../../../src/common';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '../../support/isolation';
import { Instance, startInstance, stopAll, waitUntilReady } from '../../support/instances';

const START_MS = 150_000;
const GRACE_MS = 25_000;
/** How long the slow request and the slow webhook send are held. */
const HOLD_MS = 3_000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP call on a keep-alive agent; the error says whether the socket was a reused one. */
function call(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  cookie?: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${base}${path}`,
      {
        agent,
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(data ? { 'content-type': 'application/json' } : {}),
          'x-forwarded-for': '10.38.0.1',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(Object.assign(err, { reusedSocket: req.reusedSocket })),
    );
    req.end(data);
  });
}

/** One request of the stream: where it went, when, and how it ended. */
interface Sent {
  to: 'A' | 'B';
  what: string;
  beforeStop: boolean;
  status?: number;
  /** The error of the first try, when it was retried on B. */
  rerouted?: string;
  error?: string;
}

describe('a rolling restart (issue 38)', () => {
  let database: TestDatabase;
  let client: Client;
  let receiver: WebhookReceiver;
  const redisPrefix = `lltest:${randomBytes(4).toString('hex')}:`;
  const instances: Instance[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const slowAgent = new Agent({ keepAlive: true });
  /** The stream of requests runs while this holds (afterAll ends it if the test failed). */
  let streaming = true;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    streaming = false;
    agent.destroy();
    slowAgent.destroy();
    await stopAll(instances);
    await client?.end();
    await receiver?.close();
    await database?.drop();
    await deleteRedisKeys(redisPrefix, process.env.REDIS_URL);
  });

  const start = async () => {
    const instance = await startInstance(
      {
        DATABASE_URL: database.url,
        REDIS_PREFIX: redisPrefix,
        SESSION_SECRET: 'rolling-restart-session-secret-of-32-chars',
        ENCRYPTION_KEY: '3'.repeat(64),
        TRUST_PROXY: 'loopback',
        OUTBOX_RELAY_INTERVAL_MS: '100',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      { waitReady: false },
    );
    instances.push(instance);
    // Generous: ts-node compiles the service at each start, on a machine shared with others.
    await waitUntilReady(instance, START_MS);
    return instance;
  };

  it(
    'loses no request when one of two instances is stopped under load, and lets its active job finish',
    async () => {
      const [a, b] = await Promise.all([start(), start()]);

      // A user registered on A, logged in on B: the session is shared.
      const email = `rolling-${randomBytes(4).toString('hex')}@example.test`;
      const password = `Ledgerline-test-${randomBytes(4).toString('hex')}`;
      const registered = await call(agent, a.url, 'POST', '/v1/user', undefined, {
        email,
        password,
      });
      expect(registered.status).toBe(201);
      await client.query(`UPDATE user_account SET email_verified = true WHERE email = $1`, [email]);
      const login = await call(agent, b.url, 'POST', '/v1/user/login', undefined, {
        email,
        password,
      });
      expect(login.status).toBe(200);
      const cookie = (login.headers['set-cookie'] as string[])
        .map((c) => c.split(';')[0])
        .join('; ');
      const org = async (name: string) => {
        const created = await call(agent, a.url, 'POST', '/v1/organization', cookie, { name });
        expect(created.status).toBe(201);
        return (JSON.parse(created.body) as { id: string }).id;
      };
      const [held, busy, hooked] = await Promise.all([org('Held'), org('Busy'), org('Hooked')]);

      // The stream: reads and writes, alternating between the instances, on keep-alive sockets.
      // A balancer sends a request refused by a stopped instance (or cut on a kept-alive socket
      // it closed before reading it) to the other one.
      let stopAt = Infinity;
      let aGone = false;
      const sent: Sent[] = [];
      let n = 0;
      const worker = async () => {
        while (streaming) {
          const i = n++;
          const to = i % 2 === 0 && !aGone ? 'A' : 'B';
          const write = i % 3 === 0;
          const record: Sent = {
            to,
            what: write ? 'PATCH busy' : 'GET list',
            beforeStop: Date.now() < stopAt,
          };
          sent.push(record);
          const send = (base: string) =>
            write
              ? call(agent, base, 'PATCH', `/v1/organization/${busy}`, cookie, {
                  name: `Busy ${i}`,
                })
              : call(agent, base, 'GET', '/v1/organization', cookie);
          try {
            record.status = (await send(to === 'A' ? a.url : b.url)).status;
          } catch (err) {
            const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
            const refused = e.code === 'ECONNREFUSED';
            const cutIdle = e.reusedSocket && e.code === 'ECONNRESET';
            if (to === 'A' && !record.beforeStop && (refused || cutIdle)) {
              record.rerouted = e.code;
              record.status = (await send(b.url).catch((e2: Error) => ({ status: 0, e2 }))).status;
            } else {
              record.error = `${e.code ?? ''} ${e.message}`;
            }
          }
        }
      };
      const workers = [worker(), worker(), worker()];
      await eventually(async () => {
        if (sent.filter((s) => s.status).length < 30) throw new Error('warming up');
        return true;
      }, 60_000);

      // A slow request on A: its organization row is held by a transaction of the test.
      const lock = new Client({ connectionString: database.url });
      await lock.connect();
      await lock.query('BEGIN');
      await lock.query(`SELECT 1 FROM organization WHERE id = $1 FOR UPDATE`, [held]);
      const slow = call(slowAgent, a.url, 'PATCH', `/v1/organization/${held}`, cookie, {
        name: 'Held on',
      });
      await eventually(async () => {
        const { rows } = await client.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
          [database.name],
        );
        if (!rows.length) throw new Error('the slow request is not waiting yet');
        return true;
      }, 30_000);

      stopAt = Date.now();
      void a.stop('SIGTERM');
      await new Promise((r) => setTimeout(r, HOLD_MS));
      expect(a.child.exitCode).toBeNull(); // still answering the slow request
      await lock.query('COMMIT');
      await lock.end();
      const slowAnswer = await slow;
      expect(slowAnswer.status).toBe(200);
      expect(slowAnswer.headers.connection).toBe('close');
      expect(await a.exited).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(GRACE_MS);
      aGone = true;

      // The stream goes on, on B.
      const count = sent.length;
      await eventually(async () => {
        if (sent.length < count + 20) throw new Error('still streaming');
        return true;
      }, 60_000);
      streaming = false;
      await Promise.all(workers);

      const before = sent.filter((s) => s.beforeStop);
      const after = sent.filter((s) => !s.beforeStop);
      expect(before.filter((s) => s.to === 'A').length).toBeGreaterThan(5);
      expect(before.filter((s) => !(s.status! >= 200 && s.status! < 300) || s.rerouted)).toEqual(
        [],
      );
      expect(after.filter((s) => !(s.status! >= 200 && s.status! < 300))).toEqual([]);
      expect(after.filter((s) => s.to === 'B').length).toBeGreaterThan(10);
      const { rows } = await client.query(`SELECT name FROM organization WHERE id = $1`, [held]);
      expect(rows).toEqual([{ name: 'Held on' }]);

      // An active job finishes before its instance exits: B's webhook send is answered only after
      // B was told to stop.
      const endpoint = await call(
        agent,
        b.url,
        'POST',
        `/v1/organization/${hooked}/webhook`,
        cookie,
        {
          url: receiver.url('/rolling'),
        },
      );
      expect(endpoint.status).toBe(201);
      let stoppedB = 0;
      receiver.respond = async (r) => {
        if (r.path === '/rolling' && !stoppedB) {
          stoppedB = Date.now();
          void b.stop('SIGTERM');
          await new Promise((done) => setTimeout(done, HOLD_MS));
        }
        return { status: 200, body: 'ok' };
      };
      const update = await call(agent, b.url, 'PATCH', `/v1/organization/${hooked}`, cookie, {
        name: 'Hooked on',
      });
      expect(update.status).toBe(200);
      expect(await b.exited).toBe(0);
      expect(Date.now() - stoppedB).toBeGreaterThanOrEqual(HOLD_MS);
      const [sentEvent] = receiver.at('/rolling');
      const { rows: attempts } = await client.query(
        `SELECT http_status FROM webhook_attempt WHERE event_id = $1`,
        [sentEvent.event.id],
      );
      expect(attempts).toEqual([{ http_status: 200 }]);
    },
    2 * START_MS + 120_000,
  );

  it('answers /health 503 while it drains, so that a balancer sends it nothing new', async () => {
    const t = await createTestApp();
    try {
      await eventually(async () => (await t.http.get('/health')).status === 200, 20_000);
      t.get<ShutdownState>(ShutdownState).draining = true;
      await t.http.get('/health').expect(503);
    } finally {
      await t.close();
    }
  });
});
