import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent, OrgFixture } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { FakeBilling } from '../../fakes/billing';
import {
  billingApp,
  closeBillingApp,
  storedSubscription,
  UNCONFIGURED,
  UNKNOWN,
  UUID,
} from './billing-fixtures';
import { ownerWithOrg } from '../../support/world';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('subscriptions', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let ds: DataSource;
  beforeAll(async () => ({ t, fake, ds } = await billingApp()));
  afterAll(() => closeBillingApp(t, fake));

  /** An owner and an organization with one shareholder. */
  async function company() {
    const { owner, org } = await ownerWithOrg(t, 'Billed Inc.');
    const member = await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ name: 'Holder', email: `holder-${Date.now()}-${Math.random()}@example.com` })
      .expect(201);
    const security = await createSecurity(owner.agent, org.id);
    await issue(owner.agent, org.id, {
      member: member.body.id,
      security: security.id,
      quantity: 10,
    });
    return { owner, org };
  }

  const subscribe = (agent: Agent, org: OrgFixture, body: object = { productHandle: 'starter' }) =>
    agent.post(`/v1/organization/${org.id}/subscription`).send(body);

  const events = (organizationId: string, type: string) =>
    ds.getRepository(OutboxEvent).findBy({ organizationId, type });

  it('subscribes the organization with its seat counts, once (409 while live)', async () => {
    const { owner, org } = await company();
    const res = await subscribe(owner.agent, org).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      organization: org.id,
      entity: org.entity,
      productHandle: 'starter',
      pricePointHandle: null,
      plan: 'starter',
      state: 'active',
      live: true,
      currentPeriodEndsAt: expect.stringMatching(ISO_TIME),
      cancelAtPeriodEnd: false,
      created: expect.stringMatching(ISO_TIME),
      updated: expect.stringMatching(ISO_TIME),
    });
    const [signup] = fake.requestsTo('POST', '/subscriptions.json').slice(-1);
    expect(signup.body).toMatchObject({
      subscription: {
        product_handle: 'starter',
        uniqueness_token: expect.any(String),
        components: [
          { component_id: 'handle:members', allocated_quantity: 1 },
          { component_id: 'handle:shareholders', allocated_quantity: 1 },
        ],
      },
    });
    const customer = [...fake.customers.values()].find((c) => c.reference === org.entity);
    expect(customer).toBeDefined();
    expect(await events(org.id, 'subscription.created')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ object: res.body }) }),
    ]);

    const again = await subscribe(owner.agent, org, { productHandle: 'growth' }).expect(409);
    expect(again.body).toMatchObject({ error: 'Conflict' });
    const list = await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200);
    expect(list.body).toEqual([res.body]);
    await owner.agent
      .get(`/v1/organization/${org.id}/features`)
      .expect(200)
      .expect((r) => expect(r.body).toMatchObject({ plan: 'starter', status: 'active' }));
  });

  it('previews the charge now and at the renewal', async () => {
    const { owner, org } = await company();
    const res = await owner.agent
      .post(`/v1/organization/${org.id}/subscription/preview`)
      .send({ productHandle: 'growth' })
      .expect(200);
    const period = {
      lineItems: expect.arrayContaining([
        expect.objectContaining({ kind: 'baseline', amount: '199.00', discount: '0.00' }),
      ]),
      subtotal: expect.stringMatching(/^\d+\.\d{2}$/),
      discount: '0.00',
      tax: '0.00',
      total: expect.stringMatching(/^\d+\.\d{2}$/),
      periodStart: expect.stringMatching(ISO_TIME),
      periodEnd: expect.stringMatching(ISO_TIME),
    };
    expect(res.body).toEqual({ currency: 'USD', current: period, next: period });
    expect(
      await ds.query('SELECT 1 FROM billing_subscription WHERE organization_id = $1', [org.id]),
    ).toEqual([]);
  });

  it('refuses a bad body (400) and an unknown product (400), changing nothing', async () => {
    const { owner, org } = await company();
    const before = fake.requestsTo('POST', '/subscriptions.json').length;
    for (const body of [
      {},
      { productHandle: '' },
      { productHandle: 'x', paymentProfileId: 'nope' },
    ]) {
      await subscribe(owner.agent, org, body).expect(400);
    }
    expect(fake.requestsTo('POST', '/subscriptions.json')).toHaveLength(before);
    const res = await subscribe(owner.agent, org, { productHandle: 'platinum' }).expect(400);
    expect(res.body).toMatchObject({
      error: 'Bad Request',
      message: expect.stringContaining('platinum'),
    });
    await subscribe(owner.agent, org, {
      productHandle: 'starter',
      paymentProfileId: UNKNOWN,
    }).expect(404);
    const list = await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200);
    expect(list.body).toEqual([]);
    expect(await events(org.id, 'subscription.created')).toEqual([]);
    // A refusal leaves no claim behind.
    expect(await claims(org.id)).toEqual([]);
  });

  it('refuses a bad preview body (400), asking the provider nothing', async () => {
    const { owner, org } = await company();
    const asked = () =>
      fake.requestsTo('POST', '/subscriptions/preview.json').length +
      fake.requestsTo('GET', '/customers/lookup.json').length;
    const before = asked();
    for (const body of [
      {},
      { productHandle: '' },
      { productHandle: 'starter', paymentProfileId: 'nope' },
      { productHandle: 'starter', couponCodes: 'LAUNCH' },
    ]) {
      await owner.agent
        .post(`/v1/organization/${org.id}/subscription/preview`)
        .send(body)
        .expect(400);
    }
    expect(asked()).toBe(before);
  });

  it('cancels at the period end, then now, recording the cancellation once', async () => {
    const { owner, org } = await company();
    const made = (await subscribe(owner.agent, org).expect(201)).body;
    const path = `/v1/organization/${org.id}/subscription/${made.id}`;
    const later = await owner.agent.delete(path).expect(200);
    expect(later.body).toMatchObject({
      id: made.id,
      state: 'active',
      cancelAtPeriodEnd: true,
      live: true,
    });
    expect(await events(org.id, 'subscription.cancelled')).toEqual([]);
    const now = await owner.agent.delete(`${path}?immediate=true`).expect(200);
    expect(now.body).toMatchObject({ id: made.id, state: 'canceled', live: false });
    await owner.agent.delete(`${path}?immediate=true`).expect(409);
    expect(await events(org.id, 'subscription.cancelled')).toHaveLength(1);
    await owner.agent.delete(`${path}?immediate=maybe`).expect(400);
    // A new one may start once the old one has ended.
    await subscribe(owner.agent, org).expect(201);
  });

  it('refuses without a session (401), without the permission (403), and another organization’s subscription (404)', async () => {
    const { owner, org } = await company();
    const made = (await subscribe(owner.agent, org).expect(201)).body;
    await t.http.get(`/v1/organization/${org.id}/subscription`).expect(401).expect(errorBody(401));
    await t.http
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(401);
    await t.http
      .post(`/v1/organization/${org.id}/subscription/preview`)
      .send({ productHandle: 'starter' })
      .expect(401);
    await t.http.delete(`/v1/organization/${org.id}/subscription/${made.id}`).expect(401);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await subscribe(viewer.agent, org).expect(403).expect(errorBody(403));
    await viewer.agent
      .get(`/v1/organization/${org.id}/subscription`)
      .expect(403)
      .expect(errorBody(403));
    await viewer.agent.delete(`/v1/organization/${org.id}/subscription/${made.id}`).expect(403);
    await viewer.agent
      .post(`/v1/organization/${org.id}/subscription/preview`)
      .send({ productHandle: 'starter' })
      .expect(403);
    const other = await company();
    await other.owner.agent
      .delete(`/v1/organization/${other.org.id}/subscription/${made.id}`)
      .expect(404)
      .expect(errorBody(404));
    await owner.agent.delete(`/v1/organization/${org.id}/subscription/${UNKNOWN}`).expect(404);
    const list = await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200);
    expect(list.body).toEqual([expect.objectContaining({ id: made.id, live: true })]);
  });

  it('answers 500 when the provider fails, storing nothing', async () => {
    const { owner, org } = await company();
    fake.failNext(500, { path: '/subscriptions.json', times: 3 });
    await subscribe(owner.agent, org).expect(500);
    const list = await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200);
    expect(list.body).toEqual([]);
  });

  const claims = (organizationId: string) =>
    ds.query('SELECT token, holder FROM billing_signup_claim WHERE organization_id = $1', [
      organizationId,
    ]);

  it('of concurrent signups makes exactly one subscription (the others 409)', async () => {
    const { owner, org } = await company();
    const answers = await Promise.all(Array.from({ length: 6 }, () => subscribe(owner.agent, org)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const customer = [...fake.customers.values()].filter((c) => c.reference === org.entity);
    expect(customer).toHaveLength(1);
    const made = [...fake.subscriptions.values()].filter((s) => s.customer.id === customer[0].id);
    expect(made).toHaveLength(1);
    expect(await events(org.id, 'subscription.created')).toHaveLength(1);
    expect(await claims(org.id)).toEqual([]);
  });

  it('finishes a signup whose outcome was lost with its token at the next signup: one subscription', async () => {
    const { owner, org } = await company();
    // Made at the provider, but no answer reached us (every attempt's answer lost).
    fake.failNext(500, { path: '/subscriptions.json', handled: true, times: 3 });
    await subscribe(owner.agent, org).expect(500);
    expect((await owner.agent.get(`/v1/organization/${org.id}/subscription`)).body).toEqual([]);
    const [left] = await claims(org.id);
    expect(left).toEqual({ token: expect.any(String), holder: null });
    const res = await subscribe(owner.agent, org).expect(201);
    expect(res.body).toMatchObject({ productHandle: 'starter', live: true });
    const customer = [...fake.customers.values()].find((c) => c.reference === org.entity)!;
    expect(
      [...fake.subscriptions.values()].filter((s) => s.customer.id === customer.id),
    ).toHaveLength(1);
    const tokens = fake
      .requestsTo('POST', '/subscriptions.json')
      .map((r) => r.body as { subscription: { uniqueness_token: string; customer_id: number } })
      .filter((b) => b.subscription.customer_id === customer.id)
      .map((b) => b.subscription.uniqueness_token);
    expect(new Set(tokens)).toEqual(new Set([left.token]));
    expect(await events(org.id, 'subscription.created')).toHaveLength(1);
    expect(await claims(org.id)).toEqual([]);
  });

  it('answers 409 while another signup is under way, and takes over one whose holder went silent', async () => {
    const { owner, org } = await company();
    await ds.query(
      `INSERT INTO billing_signup_claim (organization_id, token, holder, claimed_at)
       VALUES ($1, $2, gen_random_uuid(), now())`,
      [org.id, `signup:${org.id}:under-way`],
    );
    const busy = await subscribe(owner.agent, org).expect(409);
    expect(busy.body.message).toMatch(/under way/);
    await ds.query(
      `UPDATE billing_signup_claim SET claimed_at = now() - interval '3 minutes'
        WHERE organization_id = $1`,
      [org.id],
    );
    await subscribe(owner.agent, org).expect(201);
    const [signup] = fake.requestsTo('POST', '/subscriptions.json').slice(-1);
    expect(signup.body).toMatchObject({
      subscription: { uniqueness_token: `signup:${org.id}:under-way` },
    });
    expect(await claims(org.id)).toEqual([]);
  });

  it('re-reads a signup whose answer was lost', async () => {
    const { owner, org } = await company();
    fake.failNext(500, { path: '/subscriptions.json', handled: true });
    const res = await subscribe(owner.agent, org).expect(201);
    expect(res.body).toMatchObject({ productHandle: 'starter', live: true });
    const customer = [...fake.customers.values()].find((c) => c.reference === org.entity)!;
    const made = [...fake.subscriptions.values()].filter((s) => s.customer.id === customer.id);
    expect(made).toHaveLength(1);
  });
});

describe('subscriptions unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: UNCONFIGURED })));
  afterAll(() => t.close());

  it('answers 500 billingNotConfigured on the provider routes', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const base = `/v1/organization/${org.id}/subscription`;
    const stored = await storedSubscription(t.get<DataSource>(DataSource), org);
    for (const res of [
      await owner.agent.post(base).send({ productHandle: 'starter' }),
      await owner.agent.post(`${base}/preview`).send({ productHandle: 'starter' }),
      await owner.agent.delete(`${base}/${stored}`),
    ]) {
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ key: 'billingNotConfigured' });
    }
    await owner.agent
      .get(base)
      .expect(200)
      .expect((r) => expect(r.body).toEqual([expect.objectContaining({ id: stored })]));
  });
});
