import type Redis from 'ioredis';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { FakeBilling } from '../../fakes/billing';
import { issue, createSecurity } from '../../support/cap-table';
import { createOrg, memberAgent } from '../../support/orgs';
import { testRedis } from '../../support/sessions';
import { loggedInAgent } from '../../support/users';
import { billingApp, closeBillingApp, UNCONFIGURED, UNKNOWN } from './billing-fixtures';

const STARTER_FEATURES = {
  capTable: true,
  documents: true,
  dataRoom: true,
  equityPlans: true,
  modeling: false,
  ocf: false,
};

describe('billing catalogue and features', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let redis: Redis;
  beforeAll(async () => {
    ({ t, fake } = await billingApp());
    redis = testRedis();
  });
  afterAll(async () => {
    redis.disconnect();
    await closeBillingApp(t, fake);
  });

  /** As if the kept answers had expired (5 minutes). */
  const expireCatalogue = async () => {
    const keys = await redis.keys(`${t.redisPrefix}billing:catalogue:*`);
    if (keys.length) await redis.del(...keys);
  };

  it('lists the plans, cheapest first, with their prices, price points, features and limits', async () => {
    const { agent } = await loggedInAgent(t);
    const res = await agent.get('/v1/billing/product').expect(200);
    expect(res.body).toEqual([
      {
        handle: 'starter',
        name: 'Starter',
        price: '49.00',
        currency: 'USD',
        interval: 1,
        intervalUnit: 'month',
        pricePoints: [expect.objectContaining({ price: '49.00' })],
        features: STARTER_FEATURES,
        limits: { members: 50, shareholders: 50, storageMb: 5000 },
      },
      {
        handle: 'growth',
        name: 'Growth',
        price: '199.00',
        currency: 'USD',
        interval: 1,
        intervalUnit: 'month',
        pricePoints: expect.arrayContaining([
          {
            handle: 'growth-annual',
            name: 'Growth yearly',
            price: '1990.00',
            interval: 12,
            intervalUnit: 'month',
          },
        ]),
        features: {
          capTable: true,
          documents: true,
          dataRoom: true,
          equityPlans: true,
          modeling: true,
          ocf: true,
        },
        limits: { members: null, shareholders: null, storageMb: 50000 },
      },
    ]);
  });

  it('gives an unknown product the lowest paid plan', async () => {
    fake.seedProduct({ handle: 'legacy-pro', name: 'Legacy', priceInCents: 9900 });
    await expireCatalogue();
    const { agent } = await loggedInAgent(t);
    const res = await agent.get('/v1/billing/product').expect(200);
    const legacy = res.body.find((p: { handle: string }) => p.handle === 'legacy-pro');
    expect(legacy).toMatchObject({ price: '99.00', features: STARTER_FEATURES });
  });

  it('answers the seat price tiers', async () => {
    const { agent } = await loggedInAgent(t);
    const res = await agent.get('/v1/billing/member/pricing').expect(200);
    expect(res.body).toEqual({
      members: {
        pricingScheme: 'tiered',
        currency: 'USD',
        tiers: [
          { from: 1, to: 10, unitPrice: '0.00' },
          { from: 11, to: null, unitPrice: '2.00' },
        ],
      },
      shareholders: {
        pricingScheme: 'per_unit',
        currency: 'USD',
        tiers: [{ from: 1, to: null, unitPrice: '0.50' }],
      },
    });
  });

  it('refuses the catalogue without a session', async () => {
    await t.http.get('/v1/billing/product').expect(401).expect(errorBody(401));
    await t.http.get('/v1/billing/member/pricing').expect(401).expect(errorBody(401));
  });

  it('answers 500 when the provider fails, keeping no failure', async () => {
    const { agent } = await loggedInAgent(t);
    await expireCatalogue();
    fake.failNext(503, { times: 3, path: '/products.json' });
    const res = await agent.get('/v1/billing/product').expect(500);
    expect(res.body).toMatchObject({ error: 'Internal Server Error' });
    await agent.get('/v1/billing/product').expect(200);
  });

  it('keeps the provider’s answers 5 minutes, for every user and instance', async () => {
    await expireCatalogue();
    const asked = () =>
      fake.requestsTo('GET', '/products.json').length +
      fake.requestsTo('GET', /\/product_families\/.+\/components\.json$/).length;
    const before = asked();
    const first = await loggedInAgent(t);
    const products = (await first.agent.get('/v1/billing/product').expect(200)).body;
    const pricing = (await first.agent.get('/v1/billing/member/pricing').expect(200)).body;
    expect(asked()).toBe(before + 2);
    const second = await loggedInAgent(t);
    expect((await second.agent.get('/v1/billing/product').expect(200)).body).toEqual(products);
    expect((await second.agent.get('/v1/billing/member/pricing').expect(200)).body).toEqual(
      pricing,
    );
    expect(asked()).toBe(before + 2);
    const ttl = await redis.pttl(`${t.redisPrefix}billing:catalogue:products`);
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  it('limits each user to 30 catalogue reads a minute (429 with Retry-After and X-RateLimit-*)', async () => {
    const { agent } = await loggedInAgent(t);
    for (let i = 0; i < 30; i++) {
      await agent.get(i % 2 ? '/v1/billing/product' : '/v1/billing/member/pricing').expect(200);
    }
    for (const path of ['/v1/billing/product', '/v1/billing/member/pricing']) {
      const refused = await agent.get(path).expect(429);
      expect(refused.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-limit']).toBe('30');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    // Another user's reads are theirs.
    await (await loggedInAgent(t)).agent.get('/v1/billing/product').expect(200);
  });

  describe('features', () => {
    it('answers free with the usage for an organization without a subscription', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const member = await owner.agent
        .post(`/v1/organization/${org.id}/member`)
        .send({ name: 'Holder', email: `holder-${Date.now()}@example.com` })
        .expect(201);
      const security = await createSecurity(owner.agent, org.id);
      await issue(owner.agent, org.id, {
        member: member.body.id,
        security: security.id,
        quantity: 100,
      });
      const res = await owner.agent.get(`/v1/organization/${org.id}/features`).expect(200);
      expect(res.body).toEqual({
        plan: 'free',
        status: null,
        features: { ...STARTER_FEATURES, dataRoom: false, equityPlans: false },
        limits: { members: 10, shareholders: 10, storageMb: 100 },
        usage: { members: 1, shareholders: 1 },
      });
    });

    it('is readable by a viewer, not by someone outside (403), nor without a session (401)', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent.get(`/v1/organization/${org.id}/features`).expect(200);
      const outsider = await loggedInAgent(t);
      await outsider.agent
        .get(`/v1/organization/${org.id}/features`)
        .expect(403)
        .expect(errorBody(403));
      await t.http.get(`/v1/organization/${org.id}/features`).expect(401);
      await owner.agent.get(`/v1/organization/${UNKNOWN}/features`).expect(404);
      await owner.agent.get('/v1/organization/not-a-uuid/features').expect(400);
    });
  });
});

describe('billing unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: UNCONFIGURED })));
  afterAll(() => t.close());

  it('answers 500 billingNotConfigured on the catalogue, and free features', async () => {
    const owner = await loggedInAgent(t);
    for (const path of ['/v1/billing/product', '/v1/billing/member/pricing']) {
      const res = await owner.agent.get(path).expect(500);
      expect(res.body).toMatchObject({ key: 'billingNotConfigured' });
    }
    const org = await createOrg(owner.agent);
    const res = await owner.agent.get(`/v1/organization/${org.id}/features`).expect(200);
    expect(res.body).toMatchObject({ plan: 'free', status: null });
  });
});
