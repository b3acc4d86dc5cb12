import type { Agent } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { FakeBilling } from '../../fakes/billing';
import {
  billingApp,
  closeBillingApp,
  postWebhook,
  UNCONFIGURED,
  UNKNOWN,
  UUID,
} from './billing-fixtures';

describe('payment profiles', () => {
  let t: TestApp;
  let fake: FakeBilling;
  beforeAll(async () => ({ t, fake } = await billingApp()));
  afterAll(() => closeBillingApp(t, fake));

  const base = (entity: string) => `/v1/entity/${entity}/payment/profile`;
  const add = (agent: Agent, entity: string, card = {}) =>
    agent.post(base(entity)).send({ token: fake.cardToken(card) });

  /** An organization with two cards (the first its default) and a live subscription to `charged`. */
  async function twoCardsSubscribed(charged: 0 | 1) {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const cards = [
      (await add(owner.agent, org.entity).expect(201)).body,
      (await add(owner.agent, org.entity, { last4: '0005' }).expect(201)).body,
    ];
    await owner.agent
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter', paymentProfileId: cards[charged].id })
      .expect(201);
    return { owner, org, first: cards[0], second: cards[1] };
  }

  it('stores a card of the organization’s entity (the first is the default), lists and updates it', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const first = await add(owner.agent, org.entity, {
      last4: '4242',
      expirationYear: 2031,
    }).expect(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(UUID),
      brand: 'visa',
      last4: '4242',
      expirationMonth: 12,
      expirationYear: 2031,
      isDefault: true,
    });
    const second = await add(owner.agent, org.entity, { cardType: 'master', last4: '5454' }).expect(
      201,
    );
    expect(second.body).toMatchObject({ brand: 'master', last4: '5454', isDefault: false });
    const list = await owner.agent.get(base(org.entity)).expect(200);
    expect(list.body).toEqual([first.body, second.body]);
    const updated = await owner.agent
      .put(`${base(org.entity)}/${second.body.id}`)
      .send({ expirationMonth: 3, expirationYear: 2032 })
      .expect(200);
    expect(updated.body).toEqual({ ...second.body, expirationMonth: 3, expirationYear: 2032 });
    await owner.agent
      .put(`${base(org.entity)}/${second.body.id}`)
      .send({ expirationMonth: 13 })
      .expect(400);
    expect((await owner.agent.get(base(org.entity)).expect(200)).body[1]).toEqual(updated.body);
  });

  it('stores a card of the caller’s own entity', async () => {
    const user = await loggedInAgent(t);
    const res = await add(user.agent, user.user.entityId).expect(201);
    expect(res.body).toMatchObject({ isDefault: true });
  });

  it('refuses a bad body and a token the provider refuses (400), storing nothing', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await owner.agent.post(base(org.entity)).send({}).expect(400);
    await owner.agent.post(base(org.entity)).send({ token: 'tok_forged' }).expect(400);
    expect((await owner.agent.get(base(org.entity)).expect(200)).body).toEqual([]);
  });

  it('switches the default, and the live subscription’s profile with it; refuses to delete the default of a live subscription (409)', async () => {
    const { owner, org, first, second } = await twoCardsSubscribed(0);
    const made = await owner.agent.put(`${base(org.entity)}/${second.id}/default`).expect(200);
    expect(made.body).toEqual({ ...second, isDefault: true });
    expect(fake.requestsTo('POST', /change_payment_profile\.json$/)).toHaveLength(1);
    const list = (await owner.agent.get(base(org.entity)).expect(200)).body;
    expect(list.map((p: { id: string; isDefault: boolean }) => [p.id, p.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    await owner.agent.delete(`${base(org.entity)}/${second.id}`).expect(409);
    await owner.agent
      .delete(`${base(org.entity)}/${first.id}`)
      .expect(200)
      .expect((r) => expect(r.body).toEqual({}));
    expect((await owner.agent.get(base(org.entity)).expect(200)).body).toEqual([made.body]);
  });

  it('refuses to delete a card a live subscription is charged to though not the default (409, nothing deleted at the provider), and deletes the default it is not charged to', async () => {
    const { owner, org, first, second } = await twoCardsSubscribed(1);
    const deletes = () => fake.requestsTo('DELETE', /^\/payment_profiles\/\d+\.json$/).length;
    const before = deletes();
    const refused = await owner.agent.delete(`${base(org.entity)}/${second.id}`).expect(409);
    expect(refused.body.message).toMatch(/live subscription/);
    expect(deletes()).toBe(before);
    await owner.agent.delete(`${base(org.entity)}/${first.id}`).expect(200);
    expect(deletes()).toBe(before + 1);
    expect((await owner.agent.get(base(org.entity)).expect(200)).body).toEqual([second]);
  });

  it('follows the card the provider says a subscription pays with (webhook): the old card may go, the new one not', async () => {
    const { owner, org, first, second } = await twoCardsSubscribed(0);
    const subscription = [...fake.subscriptions.values()].find(
      (s) => s.customer.reference === org.entity,
    )!;
    const secondAtProvider = [...fake.paymentProfiles.values()].find(
      (p) => p.customer_id === subscription.customer.id && p.id !== subscription.credit_card?.id,
    )!;
    fake.updateSubscription(subscription.id, { credit_card: secondAtProvider });
    await postWebhook(
      t,
      fake.subscriptionWebhook('subscription_state_change', subscription.id),
      fake.siteSharedKey,
    ).expect(200);
    await owner.agent.delete(`${base(org.entity)}/${second.id}`).expect(409);
    await owner.agent.delete(`${base(org.entity)}/${first.id}`).expect(200);
  });

  it('refuses to delete the default a live subscription signed up without a profile is charged to (409)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const card = (await add(owner.agent, org.entity).expect(201)).body;
    await owner.agent
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(201);
    await owner.agent.delete(`${base(org.entity)}/${card.id}`).expect(409);
    expect((await owner.agent.get(base(org.entity)).expect(200)).body).toEqual([card]);
  });

  it('makes a fresh entity one customer when two first uses come at once', async () => {
    const user = await loggedInAgent(t);
    const entity = user.user.entityId;
    // The first make is slow: the second use comes while the customer is being made.
    fake.slowNext(300, { path: '/customers.json' });
    const [a, b] = await Promise.all([add(user.agent, entity), add(user.agent, entity)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([...fake.customers.values()].filter((c) => c.reference === entity)).toHaveLength(1);
    const list = (await user.agent.get(base(entity)).expect(200)).body;
    expect(list.map((p: { isDefault: boolean }) => p.isDefault).sort()).toEqual([false, true]);
  });

  it('refuses without a session (401), another’s entity (403), and a profile of another entity (404)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const profile = (await add(owner.agent, org.entity).expect(201)).body;
    const one = `${base(org.entity)}/${profile.id}`;
    await t.http.get(base(org.entity)).expect(401).expect(errorBody(401));
    await t.http.post(base(org.entity)).send({ token: 'tok_1' }).expect(401).expect(errorBody(401));
    await t.http.put(one).send({ expirationMonth: 1 }).expect(401).expect(errorBody(401));
    await t.http.put(`${one}/default`).expect(401).expect(errorBody(401));
    await t.http.delete(one).expect(401).expect(errorBody(401));
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await viewer.agent.get(base(org.entity)).expect(403).expect(errorBody(403));
    await viewer.agent.put(one).send({ expirationMonth: 1 }).expect(403).expect(errorBody(403));
    await viewer.agent.put(`${one}/default`).expect(403).expect(errorBody(403));
    await viewer.agent.delete(one).expect(403);
    const stranger = await loggedInAgent(t);
    await stranger.agent.get(base(owner.user.entityId)).expect(403);
    await add(stranger.agent, org.entity).expect(403);
    // Under the stranger's own entity, the organization's profile is not there.
    for (const path of [
      `${base(stranger.user.entityId)}/${profile.id}`,
      `${base(stranger.user.entityId)}/${profile.id}/default`,
    ]) {
      await stranger.agent.put(path).send({ expirationMonth: 1 }).expect(404);
    }
    await stranger.agent.delete(`${base(stranger.user.entityId)}/${profile.id}`).expect(404);
    await owner.agent.delete(`${base(org.entity)}/${UNKNOWN}`).expect(404);
    await owner.agent.get(base(UNKNOWN)).expect(404);
    expect((await owner.agent.get(base(org.entity)).expect(200)).body).toEqual([profile]);
  });
});

describe('payment profiles unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: UNCONFIGURED })));
  afterAll(() => t.close());

  it('answers 500 billingNotConfigured', async () => {
    const user = await loggedInAgent(t);
    const base = `/v1/entity/${user.user.entityId}/payment/profile`;
    for (const call of [
      user.agent.post(base).send({ token: 'tok_1' }),
      user.agent.put(`${base}/${UNKNOWN}`).send({ expirationMonth: 1 }),
      user.agent.put(`${base}/${UNKNOWN}/default`),
      user.agent.delete(`${base}/${UNKNOWN}`),
    ]) {
      const res = await call.expect(500);
      expect(res.body).toMatchObject({ key: 'billingNotConfigured' });
    }
  });
});
