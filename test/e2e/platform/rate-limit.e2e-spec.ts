import { randomBytes } from 'node:crypto';
import { routesOf, uncountedRoute } from '../../../src/common';
import { hooksController } from '../../../src/hooks/http/hooks.controller';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { eventually } from '../../support/eventually';
import { deleteRedisKeys } from '../../support/isolation';
import { RedisProcess } from '../../support/redis-process';
import { createOrg } from '../../support/orgs';
import { loggedInAgent, logIn, randomIp } from '../../support/users';

const LIMIT = 6;
const ON = { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: String(LIMIT) };

describe('request rate limit, by default and without Redis', () => {
  it('is off by default: no count, no headers', async () => {
    const off = await createTestApp();
    try {
      for (let i = 0; i < LIMIT + 2; i++) {
        const res = await off.http.get('/v1/organization').expect(401);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await off.close();
    }
  });

  it('answers 503 while its Redis is down (health aside), and counts again once it is back', async () => {
    const redis = new RedisProcess();
    await redis.start();
    const t = await createTestApp({ env: { ...ON, REDIS_URL: redis.url } });
    try {
      await t.http.get('/v1/organization').expect(401);
      await redis.kill();
      await eventually(async () => (await t.http.get('/v1/organization')).status === 503);
      const down = await t.http.get('/v1/organization').expect(503);
      expect(down.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
      expect((await t.http.get('/health')).headers['x-ratelimit-limit']).toBeUndefined();
      await redis.start();
      let back: Awaited<ReturnType<typeof t.http.get>> | undefined;
      await eventually(
        async () => (back = await t.http.get('/v1/organization')).status === 401,
        20_000,
      );
      expect(back!.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    } finally {
      await t.close();
      await redis.kill();
    }
  });
});

/**
 * The request rate limit of spec section 8 (RATE_LIMIT_ENABLED): per session, per client address
 * without one, counted in Redis, so two instances on one Redis share one count.
 */
describe('request rate limit', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const redisPrefix = `lltest:rate:${randomBytes(4).toString('hex')}:`;
  beforeAll(async () => {
    database = await createTestDatabase();
    // Two instances of the service on one database and one Redis, like two pods.
    a = await createTestApp({ database, redisPrefix, env: ON });
    b = await createTestApp({ database, redisPrefix, env: ON });
  });
  afterAll(async () => {
    await b.close({ keepData: true });
    await a.close();
  });

  /** Forgets every count (the set-up's logins and writes counted too). */
  const resetCounts = () => deleteRedisKeys(`${redisPrefix}requests:`, process.env.REDIS_URL);
  /** An anonymous request from `ip` (behind the trusted proxy of the test env). */
  const anonymous = (t: TestApp, ip: string) =>
    t.http.get('/v1/organization').set('X-Forwarded-For', ip);

  it('counts every request, with X-RateLimit-*; past the limit 429 with Retry-After', async () => {
    const ip = randomIp();
    await resetCounts();
    for (let i = 1; i <= LIMIT; i++) {
      const res = await anonymous(a, ip).expect(401);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      const now = Math.floor(Date.now() / 1000);
      expect(reset).toBeGreaterThanOrEqual(now);
      expect(reset).toBeLessThanOrEqual(now + 61);
    }
    const refused = await anonymous(a, ip).expect(429);
    expect(refused.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers).toMatchObject({
      'x-ratelimit-limit': String(LIMIT),
      'x-ratelimit-remaining': '0',
    });
    // Another address has a count of its own.
    await anonymous(a, randomIp()).expect(401);
  });

  it('is one count across two instances sharing Redis', async () => {
    const ip = randomIp();
    await resetCounts();
    for (let i = 0; i < LIMIT; i++) await anonymous(i % 2 ? a : b, ip).expect(401);
    await anonymous(a, ip).expect(429);
    await anonymous(b, ip).expect(429);
  });

  it('counts a logged-in session on its own, apart from its address and other sessions', async () => {
    const owner = await loggedInAgent(a);
    const org = await createOrg(owner.agent);
    const second = await logIn(b, owner.email, owner.password);
    await resetCounts();
    const members = `/v1/organization/${org.id}/member`;
    for (let i = 0; i < LIMIT; i++) await owner.agent.get(members).expect(200);
    // The session is spent.
    const refused = await owner.agent.get(members).expect(429);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // The same user's other session, and the address without a session, still count nothing.
    const other = await second.get(members).expect(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    const anon = await a.http.get('/v1/organization').expect(401);
    expect(anon.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('a session is not held up by its spent address', async () => {
    const owner = await loggedInAgent(a);
    const ip = randomIp();
    await resetCounts();
    for (let i = 0; i < LIMIT; i++) await anonymous(a, ip).expect(401);
    await anonymous(a, ip).expect(429);
    await owner.agent.get('/v1/organization').set('X-Forwarded-For', ip).expect(200);
  });

  it('counts a 304 of a cached list; the reads of POST /v1/query count as that one request', async () => {
    const owner = await loggedInAgent(a);
    const org = await createOrg(owner.agent);
    const members = `/v1/organization/${org.id}/member`;
    const { etag } = (await owner.agent.get(members).expect(200)).headers;
    await resetCounts();
    const cached = await owner.agent.get(members).set('If-None-Match', etag).expect(304);
    expect(cached.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    const reads = Array.from({ length: LIMIT + 2 }, (_, i) => ({ id: `q${i}`, path: members }));
    const batch = await owner.agent.post('/v1/query').send({ queries: reads }).expect(200);
    expect(batch.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 2));
    for (const result of Object.values(batch.body.results as Record<string, { status: number }>))
      expect(result.status).toBe(200);
  });

  it('does not count /health nor the machine callers’ routes', async () => {
    const ip = randomIp();
    await resetCounts();
    for (let i = 0; i < LIMIT; i++) await anonymous(a, ip).expect(401);
    for (let i = 0; i < LIMIT + 2; i++) {
      const health = await a.http.get('/health').set('X-Forwarded-For', ip).expect(200);
      expect(health.headers['x-ratelimit-limit']).toBeUndefined();
    }
    // The messaging gateway's routes and the billing provider's webhook: refused for their
    // credential, never for the spent address.
    const gateway = await a.http
      .get('/api/v1/chat/team-mapping/T1')
      .set('X-Forwarded-For', ip)
      .set('Authorization', 'Bearer wrong');
    expect(gateway.status).not.toBe(429);
    expect(gateway.headers['x-ratelimit-limit']).toBeUndefined();
    const webhook = await a.http
      .post('/v1/billing/webhook')
      .set('X-Forwarded-For', ip)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('id=1&event=test');
    expect(webhook.status).not.toBe(429);
    expect(webhook.headers['x-ratelimit-limit']).toBeUndefined();
    await anonymous(a, ip).expect(429);
  });

  it('leaves every gateway hook route uncounted (HOOKS_PATH, raw bodies, the 405 answers too)', () => {
    const routes = routesOf(hooksController('/hooks'));
    expect(routes.length).toBeGreaterThan(3);
    for (const route of routes)
      expect({ route, uncounted: uncountedRoute(route) }).toEqual({
        route,
        uncounted: true,
      });
  });
});
