import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { RedisProcess } from '../../support/redis-process';
import { loggedInAgent } from '../../support/users';

describe('Redis outage', () => {
  const redis = new RedisProcess();
  let t: TestApp;

  beforeAll(async () => {
    await redis.start();
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await t.close();
    await redis.kill();
  });

  it('answers 503 while Redis is down, stays up, and recovers when Redis returns', async () => {
    const { agent } = await loggedInAgent(t);
    await agent.get('/v1/user/session').expect(200);

    await redis.kill();
    const down = await agent.get('/v1/user/session');
    expect(down.status).toBe(503);
    expect(down.body.error).toBe('Service Unavailable');
    const health = await t.http.get('/health').expect(503);
    expect(health.body).toMatchObject({
      status: 'error',
      error: { redis: { status: 'down' } },
      details: { database: { status: 'up' }, redis: { status: 'down' } },
    });
    // Routes that need no session still answer.
    await t.http.get('/v1/no-such-route').expect(404);

    await redis.start();
    await eventually(async () => (await agent.get('/v1/user/session')).status === 200, 15_000, 200);
    await t.http.get('/health').expect(200);
  });
});
