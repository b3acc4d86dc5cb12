import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { CountPusher } from '../../../src/billing/counts/count-pusher.service';
import { BILLING_COUNT_PUSH, QueueName } from '../../../src/events';
import { createTestApp, TestApp } from '../../support/app';
import { Scheduler } from '../../../src/scheduler';
import { takeClock } from '../../support/clock';
import { createSecurity, issue } from '../../support/cap-table';
import { eventually, sleep } from '../../support/eventually';
import { createOrg, OrgFixture } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { FakeBilling } from '../../fakes/billing';
import { billingApp, closeBillingApp, UNCONFIGURED } from './billing-fixtures';
import { ownerWithOrg } from '../../support/world';

describe('seat count pushes', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let ds: DataSource;
  beforeAll(async () => ({ t, fake, ds } = await billingApp()));
  afterAll(() => closeBillingApp(t, fake));

  async function company(subscribe: boolean) {
    const { owner, org } = await ownerWithOrg(t);
    const security = await createSecurity(owner.agent, org.id, { authorizedShares: '10000000' });
    let providerId: number | undefined;
    if (subscribe) {
      await owner.agent
        .post(`/v1/organization/${org.id}/subscription`)
        .send({ productHandle: 'starter' })
        .expect(201);
      providerId = [...fake.subscriptions.values()].find(
        (s) => s.customer.reference === org.entity,
      )!.id;
    }
    return { owner, org, security, providerId };
  }

  /** `n` new members, each given shares at once (a burst of count changes). */
  async function holders(agent: Agent, org: OrgFixture, security: string, n: number) {
    const members = [];
    for (let i = 0; i < n; i++) {
      const res = await agent
        .post(`/v1/organization/${org.id}/member`)
        .send({ name: `Holder ${i}`, email: `h${i}-${Date.now()}-${Math.random()}@example.com` })
        .expect(201);
      members.push(res.body.id as string);
    }
    await Promise.all(
      members.map((member) => issue(agent, org.id, { member, security, quantity: 10 })),
    );
  }

  const sync = async (organizationId: string) =>
    (
      await ds.query(
        'SELECT requested_seq, pushed_seq, pushed_members, pushed_shareholders FROM billing_count_sync WHERE organization_id = $1',
        [organizationId],
      )
    )[0];

  const pushesTo = (providerId: number) =>
    fake
      .requestsTo('POST', `/subscriptions/${providerId}/allocations.json`)
      .map((r) =>
        (r.body as { allocations: { quantity: number }[] }).allocations.map((a) => a.quantity),
      );

  it('pushes a burst of 50 changes once, with the final counts', async () => {
    const { owner, org, security, providerId } = await company(true);
    await holders(owner.agent, org, security.id, 50);
    await eventually(async () => pushesTo(providerId!).length === 1, 30_000, 200);
    expect(pushesTo(providerId!)).toEqual([[50, 50]]);
    await eventually(async () => {
      const s = await sync(org.id);
      return s.requested_seq === s.pushed_seq && s.requested_seq > 0;
    });
    expect(await sync(org.id)).toMatchObject({ pushed_members: 50, pushed_shareholders: 50 });
    // Nothing more follows.
    await sleep(1000);
    expect(pushesTo(providerId!)).toHaveLength(1);
  });

  it('marks changes pushed without a call when there is no subscription', async () => {
    const { owner, org, security } = await company(false);
    const before = fake.requestsTo('POST', /allocations\.json$/).length;
    await holders(owner.agent, org, security.id, 2);
    await eventually(
      async () => {
        const s = await sync(org.id);
        return s && s.requested_seq > 0 && s.requested_seq === s.pushed_seq;
      },
      20_000,
      200,
    );
    expect(fake.requestsTo('POST', /allocations\.json$/)).toHaveLength(before);
  });

  it('converges after provider failures (retried with backoff)', async () => {
    const { owner, org, security, providerId } = await company(true);
    fake.failNext(503, { path: `/subscriptions/${providerId}/allocations.json`, times: 3 });
    await holders(owner.agent, org, security.id, 1);
    await eventually(async () => (await sync(org.id))?.pushed_members === 1, 40_000, 250);
    expect(pushesTo(providerId!).slice(-1)).toEqual([[1, 1]]);
  });

  it('a change made while a push is under way gets a push of its own, with the final counts', async () => {
    const { owner, org, security, providerId } = await company(true);
    const allocations = `/subscriptions/${providerId}/allocations.json`;
    fake.slowNext(4000, { path: allocations });
    await holders(owner.agent, org, security.id, 1);
    // The push reached the provider, which has not answered yet.
    await eventually(async () => fake.requestsTo('POST', allocations).length === 1, 20_000, 100);
    await holders(owner.agent, org, security.id, 1);
    await eventually(async () => (await sync(org.id))?.pushed_members === 2, 30_000, 200);
    expect(pushesTo(providerId!)).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const s = await sync(org.id);
    expect(s.pushed_seq).toBe(s.requested_seq);
  });

  it('a change whose push job was lost (Redis, or a kill between commit and push) arrives with the sweep', async () => {
    const { owner, org, security, providerId } = await company(true);
    await holders(owner.agent, org, security.id, 1);
    await eventually(async () => (await sync(org.id))?.pushed_members === 1, 20_000, 200);
    // The minute's sweep would re-queue the lost push at its own time: the clock stops, and this
    // minute's turn is taken now (by this tick or an earlier one), before the change.
    const scheduler = t.get<Scheduler>(Scheduler);
    const clock = takeClock(t).freeze();
    await scheduler.tick('billing:count-sweep');
    const member = await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ name: 'Late', email: `late-${Date.now()}@example.com` })
      .expect(201);
    await issue(owner.agent, org.id, {
      member: member.body.id,
      security: security.id,
      quantity: 5,
    });
    await eventually(async () => {
      const s = await sync(org.id);
      return s.requested_seq > s.pushed_seq;
    });
    const queue = t.get<Queue>(getQueueToken(QueueName.BillingCounts));
    // The consumer adds the push job just after counting the change: lose it once it is waiting.
    const job = await eventually(async () => {
      const waiting = await queue.getJob(BILLING_COUNT_PUSH.jobId(org.id));
      if (!waiting || !(await waiting.isDelayed())) throw new Error('no push waiting yet');
      return waiting;
    });
    await job.remove();
    await sleep(6000);
    expect(pushesTo(providerId!)).toEqual([[1, 1]]);
    expect(await scheduler.tick('billing:count-sweep')).toBe(false);
    // A minute later the sweep's turn comes again.
    clock.advance(60_000);
    expect(await scheduler.tick('billing:count-sweep')).toBe(true);
    clock.restore();
    await eventually(async () => (await sync(org.id))?.pushed_members === 2, 20_000, 200);
    expect(pushesTo(providerId!)).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});

describe('seat count pushes, one at a time without a lock', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let ds: DataSource;
  // The queue's own pushes wait an hour: this test makes each push itself.
  beforeAll(
    async () => ({ t, fake, ds } = await billingApp({ BILLING_COUNTS_DEBOUNCE_MS: '3600000' })),
  );
  afterAll(() => closeBillingApp(t, fake));

  const sync = async (organizationId: string) =>
    (
      await ds.query(
        'SELECT requested_seq, pushed_seq, pushed_members, push_lease FROM billing_count_sync WHERE organization_id = $1',
        [organizationId],
      )
    )[0];

  it('a second push while one is under way is busy; one that outlived its lease pushes again', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const security = await createSecurity(owner.agent, org.id);
    await owner.agent
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(201);
    const providerId = [...fake.subscriptions.values()].find(
      (s) => s.customer.reference === org.entity,
    )!.id;
    const allocations = `/subscriptions/${providerId}/allocations.json`;
    const landed = () =>
      fake.allocations
        .filter((a) => a.subscription_id === providerId && a.component_handle === 'members')
        .map((a) => a.quantity);
    const pusher = t.get<CountPusher>(CountPusher);
    async function holder() {
      const before = (await sync(org.id))?.requested_seq ?? 0;
      const member = await owner.agent
        .post(`/v1/organization/${org.id}/member`)
        .send({ name: 'Holder', email: `holder-${Date.now()}-${Math.random()}@example.com` })
        .expect(201);
      await issue(owner.agent, org.id, {
        member: member.body.id,
        security: security.id,
        quantity: 1,
      });
      await eventually(async () => (await sync(org.id)).requested_seq > before);
    }

    // The first push reaches the provider, which holds its answer.
    await holder();
    let reached!: () => void;
    let answer!: () => void;
    const atProvider = new Promise<void>((resolve) => (reached = resolve));
    const held = new Promise<void>((resolve) => (answer = resolve));
    let calls = 0;
    const stop = fake.during(async () => {
      if (++calls > 1) return;
      reached();
      await held;
    }, allocations);
    try {
      const first = pusher.push(org.id);
      await atProvider;
      expect((await sync(org.id)).push_lease).not.toBeNull();
      expect(await pusher.push(org.id)).toBe('busy');

      // A push that outlives its lease (it cannot, short of a stalled process): another runs.
      await holder();
      await ds.query(
        `UPDATE billing_count_sync SET push_lease_until = now() - interval '1 second'
          WHERE organization_id = $1`,
        [org.id],
      );
      expect(await pusher.push(org.id)).toBe('pushed');
      expect(landed()).toEqual([2]);
      // The first one's answer comes last: its older counts land after the newer ones.
      answer();
      expect(await first).toBe('pushed');
      expect(landed()).toEqual([2, 1]);
    } finally {
      stop();
      answer();
    }
    // It asked for one more push, which sets the counts of now.
    const after = await sync(org.id);
    expect(after.requested_seq).toBeGreaterThan(after.pushed_seq);
    expect(after.pushed_members).toBeNull();
    expect(await pusher.push(org.id)).toBe('pushed');
    expect(landed()).toEqual([2, 1, 2]);
    expect(await sync(org.id)).toMatchObject({ pushed_members: 2, push_lease: null });
  });
});

describe('seat count pushes unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: UNCONFIGURED })));
  afterAll(() => t.close());

  it('consumes the count events, marking them pushed without a call', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
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
    const ds = t.get<DataSource>(DataSource);
    await eventually(
      async () => {
        const [s] = await ds.query(
          'SELECT requested_seq, pushed_seq FROM billing_count_sync WHERE organization_id = $1',
          [org.id],
        );
        return s && s.requested_seq > 0 && s.requested_seq === s.pushed_seq;
      },
      20_000,
      200,
    );
  });
});
