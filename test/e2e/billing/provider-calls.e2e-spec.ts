import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { SiteAdminService } from '../../../src/organizations';
import { FakeBilling, FakeBillingRequest } from '../../fakes/billing';
import { TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { balanceOf, fund } from '../../support/credit';
import { eventually, sleep } from '../../support/eventually';
import { createOrg, OrgFixture } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { billingApp, closeBillingApp } from './billing-fixtures';

/** How long each provider call is held while the database is looked at. */
const HOLD_MS = 250;

interface IdleTransaction {
  pid: number;
  xact_start: Date;
  state_change: Date;
  query: string;
}

/**
 * No database transaction or advisory lock is held across a call to the billing provider
 * (issue 35): the fake provider holds every call while it looks at the app's database, and
 * records any session of it that stayed idle inside one transaction for the whole hold (a
 * transaction waiting for the provider's answer). Every billing and referral flow that calls the
 * provider is run through it.
 */
describe('billing provider calls hold no transaction', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let ds: DataSource;
  /** Calls made while a transaction of the app stayed open, with what it last ran. */
  let held: { call: string; queries: string[] }[] = [];
  let stopWatching: () => void;

  const idleInTransaction = (): Promise<IdleTransaction[]> =>
    ds.query(
      `SELECT pid, xact_start, state_change, left(query, 300) AS query FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND state LIKE 'idle in transaction%'`,
    );

  async function watch(request: FakeBillingRequest) {
    const before = await idleInTransaction();
    await sleep(HOLD_MS);
    const after = await idleInTransaction();
    // Idle in the same transaction, without a statement, from before the hold to after it.
    const open = after.filter((a) =>
      before.some(
        (b) =>
          b.pid === a.pid &&
          b.xact_start.getTime() === a.xact_start.getTime() &&
          b.state_change.getTime() === a.state_change.getTime(),
      ),
    );
    if (open.length) {
      held.push({ call: `${request.method} ${request.path}`, queries: open.map((o) => o.query) });
    }
  }

  beforeAll(async () => {
    ({ t, fake, ds } = await billingApp({ BILLING_COUNTS_DEBOUNCE_MS: '0' }));
    fake.seedCoupon({ code: 'LAUNCH20', percentage: '20.0' });
    stopWatching = fake.during(watch);
  });
  afterAll(async () => {
    stopWatching();
    await closeBillingApp(t, fake);
  });
  beforeEach(() => (held = []));

  const callsSince = (mark: number) =>
    fake.requests.slice(mark).map((r) => `${r.method} ${r.path.replace(/\d+/g, ':id')}`);

  /** The entity's redemptions reached the provider (its balance goes when they are reserved). */
  const applied = (entityId: string) =>
    eventually(async () => {
      const rows: { state: string }[] = await ds.query(
        'SELECT state FROM credit_redemption WHERE entity_id = $1',
        [entityId],
      );
      return rows.length > 0 && rows.every((r) => r.state === 'applied');
    });

  async function subscribed(agent: Agent, org: OrgFixture) {
    await agent
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(201);
    return [...fake.subscriptions.values()].find((s) => s.customer.reference === org.entity)!;
  }

  it('signs up (making the customer), previews and cancels', async () => {
    const mark = fake.requests.length;
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await owner.agent
      .post(`/v1/organization/${org.id}/subscription/preview`)
      .send({ productHandle: 'growth' })
      .expect(200);
    const made = (
      await owner.agent
        .post(`/v1/organization/${org.id}/subscription`)
        .send({ productHandle: 'starter' })
        .expect(201)
    ).body;
    const path = `/v1/organization/${org.id}/subscription/${made.id}`;
    await owner.agent.delete(path).expect(200);
    await owner.agent.delete(`${path}?immediate=true`).expect(200);
    expect(callsSince(mark)).toEqual(
      expect.arrayContaining([
        'GET /customers/lookup.json',
        'POST /customers.json',
        'POST /subscriptions/preview.json',
        'POST /subscriptions.json',
        'POST /subscriptions/:id/delayed_cancel.json',
        'DELETE /subscriptions/:id.json',
      ]),
    );
    expect(held).toEqual([]);
  });

  it('while the signup call is held, another transaction takes the organization’s billing lock', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    let taken: string | undefined;
    const stop = fake.during(async () => {
      // Waits out a lock held for a moment; one held across this call would never be let go.
      taken = await ds
        .transaction(async (manager) => {
          await manager.query(`SET LOCAL lock_timeout = '2s'`);
          await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
            `billing:${org.id}`,
          ]);
          return 'taken';
        })
        .catch((err: Error) => err.message);
    }, '/subscriptions.json');
    try {
      await subscribed(owner.agent, org);
    } finally {
      stop();
    }
    expect(taken).toBe('taken');
  });

  it('stores, changes, makes default and removes payment profiles', async () => {
    const mark = fake.requests.length;
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const base = `/v1/entity/${org.entity}/payment/profile`;
    const first = (await owner.agent.post(base).send({ token: fake.cardToken() }).expect(201)).body;
    const second = (await owner.agent.post(base).send({ token: fake.cardToken() }).expect(201))
      .body;
    await subscribed(owner.agent, org);
    await owner.agent.put(`${base}/${second.id}`).send({ expirationMonth: 3 }).expect(200);
    await owner.agent.put(`${base}/${second.id}/default`).expect(200);
    await owner.agent.delete(`${base}/${first.id}`).expect(200);
    expect(callsSince(mark)).toEqual(
      expect.arrayContaining([
        'POST /payment_profiles.json',
        'PUT /payment_profiles/:id.json',
        'POST /subscriptions/:id/payment_profiles/:id/change_payment_profile.json',
        'DELETE /payment_profiles/:id.json',
      ]),
    );
    expect(held).toEqual([]);
  });

  it('pushes seat counts', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const subscription = await subscribed(owner.agent, org);
    const security = await createSecurity(owner.agent, org.id);
    const member = await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ name: 'Holder', email: `holder-${Date.now()}@example.com` })
      .expect(201);
    await issue(owner.agent, org.id, {
      member: member.body.id,
      security: security.id,
      quantity: 5,
    });
    const path = `/subscriptions/${subscription.id}/allocations.json`;
    await eventually(async () => fake.requestsTo('POST', path).length > 0, 20_000, 100);
    await sleep(HOLD_MS * 2);
    expect(held).toEqual([]);
  });

  it('applies referral credit to an organization’s invoices (a redemption)', async () => {
    const giver = await loggedInAgent(t);
    await fund(ds, giver.user.entityId, '20.00');
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const subscription = await subscribed(owner.agent, org);
    await giver.agent
      .post('/v1/credit/transfer')
      .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '7.50' })
      .expect(201);
    await applied(org.entity);
    expect(await balanceOf(ds, org.entity)).toBe('0.00');
    // Credited once (the subscription's own redemption may send it again: the same token).
    const credits = fake.adjustments.filter((a) => a.subscription_id === subscription.id);
    expect(credits.map((a) => a.amount_in_cents)).toEqual([-750]);
    expect(held).toEqual([]);
  });

  it('while the redemption call is held, another transaction locks the credit account', async () => {
    const giver = await loggedInAgent(t);
    await fund(ds, giver.user.entityId, '5.00');
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await subscribed(owner.agent, org);
    let locked: string | undefined;
    const stop = fake.during(async () => {
      locked = await ds
        .transaction(async (manager) => {
          await manager.query(`SET LOCAL lock_timeout = '2s'`);
          await manager.query(
            'SELECT movements FROM credit_account WHERE entity_id = $1 FOR UPDATE',
            [org.entity],
          );
          return 'locked';
        })
        .catch((err: Error) => err.message);
    }, /\/adjustments\.json$/);
    try {
      await giver.agent
        .post('/v1/credit/transfer')
        .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '5' })
        .expect(201);
      await applied(org.entity);
    } finally {
      stop();
    }
    expect(locked).toBe('locked');
  });

  it('validates promotion codes, reads the catalogue and transactions, makes adjustments', async () => {
    const mark = fake.requests.length;
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await subscribed(owner.agent, org);
    const made = (await owner.agent.get(`/v1/organization/${org.id}/subscription`).expect(200))
      .body[0];
    await owner.agent.post('/v1/promo/validate').send({ code: 'LAUNCH20' }).expect(200);
    await owner.agent.get('/v1/billing/product').expect(200);
    await owner.agent.get('/v1/billing/member/pricing').expect(200);
    await owner.agent.get(`/v1/organization/${org.id}/billing/transaction`).expect(200);
    const admin = await loggedInAgent(t);
    await t.get<SiteAdminService>(SiteAdminService).grant(admin.email);
    await admin.agent
      .post(`/v1/subscriptions/${made.id}/adjustments`)
      .send({ amount: '-1.00', memo: 'Goodwill' })
      .expect(201);
    expect(callsSince(mark)).toEqual(
      expect.arrayContaining([
        'GET /coupons/validate.json',
        'GET /invoices.json',
        'POST /subscriptions/:id/adjustments.json',
      ]),
    );
    expect(held).toEqual([]);
  });
});
