import { BillingCredits, BillingNotFoundError } from '../../../src/billing';
import { SiteAdminService } from '../../../src/organizations';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { FakeBilling } from '../../fakes/billing';
import { DataSource } from 'typeorm';
import {
  billingApp,
  closeBillingApp,
  storedSubscription,
  UNCONFIGURED,
  UNKNOWN,
} from './billing-fixtures';

async function siteAdmin(t: TestApp) {
  const admin = await loggedInAgent(t);
  await t.get<SiteAdminService>(SiteAdminService).grant(admin.email);
  return admin;
}

describe('adjustments, promotion codes and transactions', () => {
  let t: TestApp;
  let fake: FakeBilling;
  beforeAll(async () => {
    ({ t, fake } = await billingApp());
    fake.seedCoupon({
      code: 'LAUNCH20',
      name: 'Launch',
      percentage: '20.0',
      recurring: true,
      durationPeriodCount: 3,
    });
    fake.seedCoupon({ code: 'TENOFF', name: 'Ten off', amountInCents: 1000 });
    fake.seedCoupon({ code: 'OLD', percentage: '10.0', endDate: '2020-01-01T00:00:00Z' });
  });
  afterAll(() => closeBillingApp(t, fake));

  async function subscribed() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const subscription = (
      await owner.agent
        .post(`/v1/organization/${org.id}/subscription`)
        .send({ productHandle: 'starter' })
        .expect(201)
    ).body;
    return { owner, org, subscription };
  }

  describe('POST /v1/subscriptions/:subscription/adjustments', () => {
    it('credits (negative) and charges (positive) a subscription, in cents exactly', async () => {
      const { subscription } = await subscribed();
      const admin = await siteAdmin(t);
      const path = `/v1/subscriptions/${subscription.id}/adjustments`;
      const credit = await admin.agent
        .post(path)
        .send({ amount: '-25.5', memo: 'Goodwill' })
        .expect(201);
      expect(credit.body).toEqual({
        id: expect.any(Number),
        subscription: subscription.id,
        amount: '-25.50',
        currency: 'USD',
        memo: 'Goodwill',
        created: expect.any(String),
      });
      const charge = await admin.agent.post(path).send({ amount: 0.1, memo: 'Setup' }).expect(201);
      expect(charge.body).toMatchObject({ amount: '0.10' });
      expect(fake.adjustments.map((a) => a.amount_in_cents)).toEqual([-2550, 10]);
    });

    it('refuses zero, more than two decimals or no memo (400), changing nothing', async () => {
      const { subscription } = await subscribed();
      const admin = await siteAdmin(t);
      const before = fake.adjustments.length;
      const path = `/v1/subscriptions/${subscription.id}/adjustments`;
      for (const body of [
        { amount: 0, memo: 'x' },
        { amount: '0.00', memo: 'x' },
        { amount: '1.005', memo: 'x' },
        { amount: 1e21, memo: 'x' },
        { amount: '10' },
        { memo: 'x' },
      ]) {
        await admin.agent.post(path).send(body).expect(400);
      }
      expect(fake.adjustments).toHaveLength(before);
    });

    it('is for site administrators only (401, 403), and 404 for an unknown subscription', async () => {
      const { owner, subscription } = await subscribed();
      const path = `/v1/subscriptions/${subscription.id}/adjustments`;
      await t.http.post(path).send({ amount: '-1', memo: 'x' }).expect(401);
      await owner.agent
        .post(path)
        .send({ amount: '-1', memo: 'x' })
        .expect(403)
        .expect(errorBody(403));
      const admin = await siteAdmin(t);
      await admin.agent
        .post(`/v1/subscriptions/${UNKNOWN}/adjustments`)
        .send({ amount: '-1', memo: 'x' })
        .expect(404);
    });
  });

  describe('BillingCredits (referral rewards)', () => {
    it('credits the entity’s live subscription once per key, and names none without one', async () => {
      const { org, subscription } = await subscribed();
      const credits = t.get<BillingCredits>(BillingCredits);
      const before = fake.adjustments.length;
      expect(await credits.target(org.entity)).toBe(subscription.id);
      expect(await credits.credit(subscription.id, '10', 'Referral reward', 'reward-1')).toBe(
        'credited',
      );
      expect(await credits.credit(subscription.id, '10', 'Referral reward', 'reward-1')).toBe(
        'already-credited',
      );
      expect(fake.adjustments.slice(before).map((a) => a.amount_in_cents)).toEqual([-1000]);
      const other = await loggedInAgent(t);
      expect(await credits.target(other.user.entityId)).toBeNull();
      await expect(credits.credit(UNKNOWN, '5', 'Referral reward', 'reward-2')).rejects.toThrow(
        BillingNotFoundError,
      );
      await expect(credits.credit(subscription.id, '0', 'x', 'reward-3')).rejects.toThrow(
        RangeError,
      );
    });
  });

  describe('POST /v1/promo/validate', () => {
    it('answers what a code gives, or why it may not be used', async () => {
      const { agent } = await loggedInAgent(t);
      const validate = async (code: string) =>
        (await agent.post('/v1/promo/validate').send({ code }).expect(200)).body;
      expect(await validate('launch20')).toEqual({
        valid: true,
        name: 'Launch',
        percentOff: '20',
        currency: 'USD',
        recurring: true,
        durationPeriods: 3,
        endsAt: null,
      });
      expect(await validate('TENOFF')).toMatchObject({
        valid: true,
        amountOff: '10.00',
        recurring: false,
      });
      expect(await validate('OLD')).toEqual({ valid: false, reason: 'expired' });
      expect(await validate('NOPE')).toEqual({ valid: false, reason: 'unknown' });
      await agent.post('/v1/promo/validate').send({}).expect(400);
      await t.http.post('/v1/promo/validate').send({ code: 'X' }).expect(401);
    });

    it('allows 10 codes a minute per user, then 429 with Retry-After and X-RateLimit-*', async () => {
      const { agent } = await loggedInAgent(t);
      for (let i = 0; i < 10; i++)
        await agent
          .post('/v1/promo/validate')
          .send({ code: `C${i}` })
          .expect(200);
      const refused = await agent.post('/v1/promo/validate').send({ code: 'C10' }).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['x-ratelimit-limit']).toBe('10');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      // The end of the window as a unix timestamp (seconds), at most a minute away.
      const reset = Number(refused.headers['x-ratelimit-reset']);
      const now = Math.floor(Date.now() / 1000);
      expect(reset).toBeGreaterThanOrEqual(now);
      expect(reset).toBeLessThanOrEqual(now + 61);
      // Another user has a count of their own.
      const other = await loggedInAgent(t);
      await other.agent.post('/v1/promo/validate').send({ code: 'C0' }).expect(200);
    });
  });

  describe('GET /v1/organization/:organization/billing/transaction', () => {
    it('lists the invoices newest first, paged', async () => {
      const { owner, org } = await subscribed();
      const providerId = [...fake.subscriptions.values()].find(
        (s) => s.customer.reference === org.entity,
      )!.id;
      fake.seedInvoice(providerId, {
        totalInCents: 1250,
        issueDate: '2030-01-01',
        status: 'open',
        memo: 'Seats',
      });
      const path = `/v1/organization/${org.id}/billing/transaction`;
      const all = await owner.agent.get(path).expect(200);
      expect(all.body).toHaveLength(2);
      expect(all.body[0]).toEqual({
        id: expect.stringMatching(/^inv_/),
        date: '2030-01-01',
        kind: 'invoice',
        description: 'Seats',
        amount: '12.50',
        currency: 'USD',
        status: 'open',
        url: expect.any(String),
      });
      expect(all.body[1]).toMatchObject({ kind: 'invoice', status: 'paid', amount: '49.00' });
      const second = await owner.agent.get(`${path}?limit=1&offset=1`).expect(200);
      expect(second.body).toEqual([all.body[1]]);
      await owner.agent.get(`${path}?limit=0`).expect(400);
    });

    it('pages past the provider’s 200-invoice page, newest first across subscriptions', async () => {
      const { owner, org, subscription } = await subscribed();
      const subscriptionsPath = `/v1/organization/${org.id}/subscription`;
      await owner.agent
        .delete(`${subscriptionsPath}/${subscription.id}?immediate=true`)
        .expect(200);
      await owner.agent.post(subscriptionsPath).send({ productHandle: 'growth' }).expect(201);
      const [first, second] = [...fake.subscriptions.values()]
        .filter((s) => s.customer.reference === org.entity)
        .map((s) => s.id);
      // 300 invoices a day apart from 2030 on (225 on the first subscription, every fourth on the
      // second); the two signup invoices (today) are the oldest.
      const seeded = Array.from({ length: 300 }, (_, day) =>
        fake.seedInvoice(day % 4 === 0 ? second : first, {
          totalInCents: 100 + day,
          issueDate: new Date(Date.UTC(2030, 0, 1 + day)).toISOString().slice(0, 10),
        }),
      );
      const newest = seeded.map((i) => i.uid).reverse();
      const path = `/v1/organization/${org.id}/billing/transaction`;
      const ids = async (query: string) =>
        (await owner.agent.get(`${path}?${query}`).expect(200)).body.map(
          (i: { id: string }) => i.id,
        );

      const all = await ids('limit=1000');
      expect(all).toHaveLength(302);
      expect(all.slice(0, 300)).toEqual(newest);
      expect(await ids('limit=50&offset=190')).toEqual(newest.slice(190, 240));
      expect(await ids('limit=20&offset=280')).toEqual(newest.slice(280, 300));
      expect(await ids('limit=100&offset=250')).toEqual(all.slice(250));
      expect(await ids('limit=10&offset=302')).toEqual([]);
      expect(
        fake.requestsTo('GET', '/invoices.json').every((r) => Number(r.query.per_page) <= 200),
      ).toBe(true);

      // A window within the first pages reads nothing further.
      const before = fake.requestsTo('GET', '/invoices.json').length;
      expect(await ids('limit=10')).toEqual(newest.slice(0, 10));
      const reads = fake.requestsTo('GET', '/invoices.json').slice(before);
      expect(reads.map((r) => [r.query.subscription_id, r.query.page, r.query.per_page])).toEqual(
        expect.arrayContaining([
          [String(first), '1', '10'],
          [String(second), '1', '10'],
        ]),
      );
      expect(reads).toHaveLength(2);
    });

    it('refuses without a session (401), without the permission (403), an unknown organization (404)', async () => {
      const { owner, org } = await subscribed();
      const path = `/v1/organization/${org.id}/billing/transaction`;
      await t.http.get(path).expect(401);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent.get(path).expect(403);
      await owner.agent.get(`/v1/organization/${UNKNOWN}/billing/transaction`).expect(404);
    });
  });
});

describe('adjustments, promotion codes and transactions unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: UNCONFIGURED })));
  afterAll(() => t.close());

  it('answers 500 billingNotConfigured', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const stored = await storedSubscription(t.get<DataSource>(DataSource), org);
    const admin = await siteAdmin(t);
    for (const res of [
      await owner.agent.get(`/v1/organization/${org.id}/billing/transaction`),
      await owner.agent.post('/v1/promo/validate').send({ code: 'LAUNCH20' }),
      await admin.agent
        .post(`/v1/subscriptions/${stored}/adjustments`)
        .send({ amount: '-5', memo: 'Goodwill' }),
    ]) {
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ key: 'billingNotConfigured' });
    }
  });
});
