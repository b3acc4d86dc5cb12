import { DataSource } from 'typeorm';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { FakeBilling, FakeWebhook } from '../../fakes/billing';
import { formEncode, signature } from '../../fakes/billing-webhooks';
import { billingApp, closeBillingApp, postWebhook, UNCONFIGURED } from './billing-fixtures';

const PATH = '/v1/billing/webhook';

describe('billing webhooks', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let ds: DataSource;
  beforeAll(async () => ({ t, fake, ds } = await billingApp()));
  afterAll(() => closeBillingApp(t, fake));

  /** Posts the webhook as the provider does (form body, signature, id header). */
  const post = (webhook: FakeWebhook, key = fake.siteSharedKey, app = t) =>
    postWebhook(app, webhook, key);

  async function subscribed() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const made = (
      await owner.agent
        .post(`/v1/organization/${org.id}/subscription`)
        .send({ productHandle: 'starter' })
        .expect(201)
    ).body;
    const providerId = [...fake.subscriptions.values()].find(
      (s) => s.customer.reference === org.entity,
    )!.id;
    const state = async () =>
      (await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200)).body[0];
    return { owner, org, made, providerId, state };
  }

  const events = (organizationId: string, type: string) =>
    ds.getRepository(OutboxEvent).findBy({ organizationId, type });

  it('applies a signed state change; the features follow', async () => {
    const { owner, org, providerId, state } = await subscribed();
    fake.updateSubscription(providerId, { state: 'past_due' });
    const res = await post(
      fake.subscriptionWebhook('subscription_state_change', providerId),
    ).expect(200);
    expect(res.body).toEqual({});
    expect(await state()).toMatchObject({ state: 'past_due', live: true });
    const features = await owner.agent.get(`/v1/organization/${org.id}/features`).expect(200);
    expect(features.body).toMatchObject({ plan: 'starter', status: 'past_due' });
  });

  it('takes a product change; the plan and features follow', async () => {
    const { owner, org, providerId, state } = await subscribed();
    const growth = [...fake.products.values()].find((p) => p.handle === 'growth')!;
    fake.updateSubscription(providerId, { product: growth });
    await post(fake.subscriptionWebhook('subscription_product_change', providerId)).expect(200);
    expect(await state()).toMatchObject({ productHandle: 'growth', plan: 'growth', live: true });
    const features = await owner.agent.get(`/v1/organization/${org.id}/features`).expect(200);
    expect(features.body).toMatchObject({
      plan: 'growth',
      status: 'active',
      features: { modeling: true, ocf: true },
      limits: { members: null, shareholders: null },
    });
  });

  it('does not repeat subscription.created when the signup of our own create arrives', async () => {
    const { org, made, providerId, state } = await subscribed();
    await post(fake.subscriptionWebhook('signup_success', providerId)).expect(200);
    expect(await state()).toMatchObject({ id: made.id, state: 'active' });
    expect(await events(org.id, 'subscription.created')).toHaveLength(1);
    const rows = await ds.query('SELECT id FROM billing_subscription WHERE organization_id = $1', [
      org.id,
    ]);
    expect(rows).toEqual([{ id: made.id }]);
  });

  it('handles a component allocation change (200, recorded)', async () => {
    const { org, providerId, state } = await subscribed();
    const members = [...fake.components.values()].find((c) => c.handle === 'members')!;
    const webhook = fake.subscriptionWebhook('component_allocation_change', providerId, {
      extra: {
        component: { id: members.id, handle: members.handle, kind: members.kind },
        previous_allocation: 1,
        new_allocation: 3,
        memo: 'Seats',
      },
    });
    await post(webhook).expect(200);
    const [row] = await ds.query(
      'SELECT event, organization_id FROM billing_webhook WHERE id = $1',
      [String(webhook.id)],
    );
    expect(row).toEqual({ event: 'component_allocation_change', organization_id: org.id });
    expect(await state()).toMatchObject({ productHandle: 'starter', state: 'active' });
    expect(await events(org.id, 'payment.succeeded')).toEqual([]);
  });

  it('refuses a bad or missing signature (401), changing nothing', async () => {
    const { providerId, state } = await subscribed();
    fake.updateSubscription(providerId, { state: 'unpaid' });
    const webhook = fake.subscriptionWebhook('subscription_state_change', providerId);
    await post(webhook, 'not-the-key').expect(401);
    await t.http
      .post(PATH)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send(formEncode({ id: webhook.id, event: webhook.event, payload: webhook.payload }))
      .expect(401);
    expect(await state()).toMatchObject({ state: 'active' });
    // The same webhook, signed, is still handled (a refusal did not mark it received).
    await post(webhook).expect(200);
    expect(await state()).toMatchObject({ state: 'unpaid' });
  });

  it('handles a webhook id once: a repeat answers 200 untouched', async () => {
    const { org, providerId } = await subscribed();
    const payment = fake.subscriptionWebhook('payment_success', providerId, {
      extra: { transaction: { amount_in_cents: 4900, memo: 'Starter' } },
    });
    await post(payment).expect(200);
    await post(payment).expect(200);
    const paid = await events(org.id, 'payment.succeeded');
    expect(paid).toHaveLength(1);
    expect(paid[0].data.object).toMatchObject({
      amount: '49.00',
      currency: 'USD',
      memo: 'Starter',
    });
    await post(fake.subscriptionWebhook('renewal_failure', providerId)).expect(200);
    expect(await events(org.id, 'payment.failed')).toHaveLength(1);
  });

  it('is idempotent by X-Chargify-Webhook-Id: a body id that differs is 400, changing nothing', async () => {
    const { org, providerId } = await subscribed();
    const payment = fake.subscriptionWebhook('payment_success', providerId);
    const body = formEncode({ id: payment.id, event: payment.event, payload: payment.payload });
    await t.http
      .post(PATH)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('x-chargify-webhook-id', `${payment.id}-other`)
      .set('x-chargify-webhook-signature-hmac-sha-256', signature(fake.siteSharedKey, body))
      .send(body)
      .expect(400);
    expect(await events(org.id, 'payment.succeeded')).toHaveLength(0);
    await post(payment).expect(200);
    expect(await events(org.id, 'payment.succeeded')).toHaveLength(1);
  });

  it('refuses a signed body writing through __proto__, constructor or prototype (400), polluting nothing', async () => {
    const { org, providerId } = await subscribed();
    const payment = fake.subscriptionWebhook('payment_success', providerId);
    const fields = formEncode({ id: payment.id, event: payment.event, payload: payment.payload });
    const signedPost = (body: string) =>
      t.http
        .post(PATH)
        .set('content-type', 'application/x-www-form-urlencoded')
        .set('x-chargify-webhook-id', String(payment.id))
        .set('x-chargify-webhook-signature-hmac-sha-256', signature(fake.siteSharedKey, body))
        .send(body);
    try {
      for (const attack of [
        'payload%5B__proto__%5D%5BisAdmin%5D=true',
        '__proto__%5BisAdmin%5D=true',
        'payload%5Bconstructor%5D%5Bprototype%5D%5BisAdmin%5D=true',
        'payload%5Bsubscription%5D%5Bprototype%5D=true',
      ]) {
        const res = await signedPost(`${fields}&${attack}`).expect(400);
        expect(res.body).toMatchObject({
          error: 'Bad Request',
          message: expect.stringContaining('__proto__'),
        });
        // The app runs in this process: a write through a prototype would show here.
        expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      }
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('isAdmin');
      expect(await events(org.id, 'payment.succeeded')).toHaveLength(0);
      // Refused before it was marked received: the clean delivery is handled.
      await post(payment).expect(200);
      expect(await events(org.id, 'payment.succeeded')).toHaveLength(1);
    } finally {
      delete (Object.prototype as Record<string, unknown>).isAdmin;
    }
  });

  it('keeps the newer state when webhooks arrive out of order', async () => {
    const { providerId, state } = await subscribed();
    const before = fake.subscriptions.get(providerId)!.updated_at;
    fake.updateSubscription(providerId, { state: 'past_due' });
    const older = fake.subscriptionWebhook('subscription_state_change', providerId, {
      updatedAt: before,
    });
    fake.updateSubscription(providerId, { state: 'active' });
    const newer = fake.subscriptionWebhook('subscription_state_change', providerId);
    fake.updateSubscription(providerId, { state: 'on_hold' });
    const newest = fake.subscriptionWebhook('subscription_state_change', providerId);
    await post(newest).expect(200);
    await post(newer).expect(200);
    await post(older).expect(200);
    expect(await state()).toMatchObject({ state: 'on_hold' });
  });

  it('records the cancellation the provider reports once, and not after our own', async () => {
    const first = await subscribed();
    fake.updateSubscription(first.providerId, { state: 'canceled' });
    await post(fake.subscriptionWebhook('subscription_state_change', first.providerId)).expect(200);
    await post(fake.subscriptionWebhook('subscription_state_change', first.providerId)).expect(200);
    expect(await first.state()).toMatchObject({ state: 'canceled', live: false });
    expect(await events(first.org.id, 'subscription.cancelled')).toHaveLength(1);

    const second = await subscribed();
    await second.owner.agent
      .delete(`/v1/organization/${second.org.id}/subscription/${second.made.id}?immediate=true`)
      .expect(200);
    await post(fake.subscriptionWebhook('subscription_state_change', second.providerId)).expect(
      200,
    );
    expect(await events(second.org.id, 'subscription.cancelled')).toHaveLength(1);
  });

  it('stores a signup it did not make by the customer’s reference, without subscription.created; records other events only', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const customer = fake.seedCustomer({ reference: org.entity });
    const created = await fetch(`${fake.url}/subscriptions.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${fake.apiKey}:x`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        subscription: { product_handle: 'growth', customer_id: customer.id },
      }),
    });
    const { subscription } = (await created.json()) as { subscription: { id: number } };
    await post(fake.subscriptionWebhook('signup_success', subscription.id)).expect(200);
    const list = await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({ productHandle: 'growth', state: 'active' }),
    ]);
    expect(await events(org.id, 'subscription.created')).toEqual([]);
    await post({
      id: 99001,
      event: 'customer_update',
      payload: { customer: { reference: org.entity } },
    }).expect(200);
    const [row] = await ds.query(
      'SELECT event, organization_id FROM billing_webhook WHERE id = $1',
      ['99001'],
    );
    expect(row).toEqual({ event: 'customer_update', organization_id: org.id });
  });
});

describe('billing webhooks unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: UNCONFIGURED })));
  afterAll(() => t.close());

  it('answers 401', async () => {
    const body = formEncode({ id: 1, event: 'signup_success', payload: {} });
    await t.http
      .post(PATH)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('x-chargify-webhook-signature-hmac-sha-256', signature('', body))
      .send(body)
      .expect(401);
  });
});
