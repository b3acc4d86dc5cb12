// The in-process instances of the scheduler test compose the gateway hooks (its heartbeat is a
// scheduled job too); the child instances get the same settings through their env.
import '../../support/hooks-on';

import Redis from 'ioredis';
import { Scheduler } from '../../../src/scheduler';
import { FakeBilling } from '../../fakes/billing';
import { FakeChat } from '../../fakes/chat';
import { FakeLlm, textAnswer, toolUseAnswer } from '../../fakes/llm';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, createTestDatabase, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { testRedisPrefix } from '../../support/isolation';
import { DRAFT_TOOL, fullDraft } from '../../support/onboarding';
import { randomIp } from '../../support/users';
import { Cluster, registerAndLogIn, Session, startCluster } from './cluster';

/** The event queues the work below feeds, with the consumer whose processed marker each writes. */
const EVENT_QUEUES = ['activity', 'webhooks', 'billing-counts', 'chat', 'referral'] as const;
const HOOKS_TOKEN = 'hooks-token-of-the-scale-tests-0123456789';

/**
 * Two instances as child processes on one database and one Redis: a session made on one is the
 * other's; work from both puts about a thousand jobs on the event queues, and each job's effect
 * happens exactly once whichever instance took it.
 */
describe('the queues across two instances', () => {
  let billing: FakeBilling;
  let chat: FakeChat;
  let llm: FakeLlm;
  let receiver: WebhookReceiver;
  let cluster: Cluster;
  let owner: Session;
  let org: { id: string; entity: string };
  let providerId: number;
  let teamId: string;
  const prefix = testRedisPrefix();

  beforeAll(async () => {
    [billing, chat, llm, receiver] = await Promise.all([
      FakeBilling.start(),
      FakeChat.start(),
      FakeLlm.start(),
      WebhookReceiver.start(),
    ]);
    billing.seedCatalogue();
    // An onboarding's analysis records a draft; a hook run answers `Done job-N` for its message
    // `job-N`; a heartbeat (it reads the main conversation's system events) answers HEARTBEAT_OK,
    // which posts nothing.
    llm.respondWith((request) => {
      if (request.body.tools?.some((tool) => 'name' in tool && tool.name === DRAFT_TOOL)) {
        return toolUseAnswer([{ name: DRAFT_TOOL, input: fullDraft('ada@rocket.test') }]);
      }
      const text = JSON.stringify(request.body.messages);
      if (text.includes('System: ')) return textAnswer('HEARTBEAT_OK');
      const job = /job-(\d+)/.exec(text);
      return textAnswer(job ? `Done job-${job[1]}` : 'HEARTBEAT_OK');
    }, Number.MAX_SAFE_INTEGER);
    cluster = await startCluster({
      env: {
        ...billing.env(),
        ...chat.env(),
        ...llm.env(),
        HOOKS_ENABLED: 'true',
        HOOKS_TOKEN,
        HOOKS_HEARTBEAT_EVERY: '5s',
        REDIS_PREFIX: prefix,
        BILLING_COUNTS_DEBOUNCE_MS: '500',
      },
    });
    const [a, b] = cluster.instances;
    owner = await registerAndLogIn(cluster, a);
    org = (await owner.to(b).post('/v1/organization').send({ name: 'Queues Inc.' }).expect(201))
      .body;
    await owner
      .to(a)
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(201);
    providerId = [...billing.subscriptions.values()].find(
      (s) => s.customer.reference === org.entity,
    )!.id;
    // The organization's chat team exists once someone opened a chat session.
    const session = await owner
      .to(b)
      .post('/api/v1/chat/session')
      .send({ organizationId: org.id })
      .expect(200);
    teamId = [...chat.teams.values()].find((t) => t.name === session.body.teamName)!.id;
    await owner
      .to(a)
      .post(`/v1/organization/${org.id}/webhook`)
      .send({ url: receiver.url('/all') })
      .expect(201);
    await owner
      .to(b)
      .post(`/v1/organization/${org.id}/webhook`)
      .send({ url: receiver.url('/members'), events: ['member.added'] })
      .expect(201);
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
    await Promise.all([billing?.close(), chat?.close(), llm?.close(), receiver?.close()]);
  });

  it('takes a session made on one instance on the other', async () => {
    const [a, b] = cluster.instances;
    await owner.to(b).get('/v1/organization').expect(200);
    await b.http.get('/v1/organization').expect(401);
    const onB = await registerAndLogIn(cluster, b);
    await onB.to(a).get('/v1/organization').expect(200);
  });

  it('does each job of about a thousand, fed from both instances, exactly once', async () => {
    const on = (n: number) => owner.to(cluster.instances[n % 2]);
    const security = (
      await on(0)
        .post(`/v1/organization/${org.id}/security`)
        .send({
          name: 'Common',
          classType: 'common',
          idPrefix: 'CS-',
          authorizedShares: '10000000',
        })
        .expect(201)
    ).body.id as string;
    const { referralCode } = (await on(1).get(`/v1/referral/${owner.user.entityId}`).expect(200))
      .body as { referralCode: string };

    // Users who register with the owner's code (referral), then join the organization (chat).
    const joiners: Session[] = [];
    for (let n = 0; n < 8; n++) {
      const user = await registerAndLogIn(cluster, cluster.instances[n % 2], { referralCode });
      await on(n)
        .post(`/v1/organization/${org.id}/member/invite`)
        .send({ email: user.email, role: 'Viewer' })
        .expect(201);
      const pending = await user.to(cluster.instances[(n + 1) % 2]).get('/v1/user/invitations');
      const invitation = (pending.body as { id: string; organization: { id: string } }[]).find(
        (i) => i.organization.id === org.id,
      )!;
      await user
        .to(cluster.instances[n % 2])
        .post(`/v1/user/invitations/${invitation.id}/accept`)
        .send()
        .expect(200);
      joiners.push(user);
    }

    // Holders given shares, four at a time, alternately on each instance.
    const HOLDERS = 160;
    for (let start = 0; start < HOLDERS; start += 4) {
      await Promise.all(
        [0, 1, 2, 3].map(async (k) => {
          const n = start + k;
          const member = await on(n)
            .post(`/v1/organization/${org.id}/member`)
            .send({ name: `Holder ${n}`, email: `holder-${n}-${prefix.slice(7, 15)}@example.com` })
            .expect(201);
          await on(n + 1)
            .post(`/v1/organization/${org.id}/shareholding`)
            .send({ issueDate: '2024-01-15', member: member.body.id, security, quantity: 10 })
            .expect(201);
        }),
      );
    }

    // Every event routed is consumed: the queues drain and nothing failed.
    const redis = new Redis();
    try {
      // Bull's keys: under `<prefix>bull`, or the hash-tagged `{<prefix>bull}` (Redis Cluster).
      const bullPrefixes = [`${prefix}bull`, `{${prefix}bull}`];
      const zcard = async (queue: string, list: string) =>
        (await Promise.all(bullPrefixes.map((b) => redis.zcard(`${b}:${queue}:${list}`)))).reduce(
          (a, b) => a + b,
          0,
        );
      const llen = async (queue: string, list: string) =>
        (await Promise.all(bullPrefixes.map((b) => redis.llen(`${b}:${queue}:${list}`)))).reduce(
          (a, b) => a + b,
          0,
        );
      const counts = async () => {
        const result: Record<string, { done: number; failed: number; pending: number }> = {};
        for (const queue of EVENT_QUEUES) {
          const [done, failed, waiting, active, delayed] = await Promise.all([
            zcard(queue, 'completed'),
            zcard(queue, 'failed'),
            llen(queue, 'wait'),
            llen(queue, 'active'),
            zcard(queue, 'delayed'),
          ]);
          result[queue] = { done, failed, pending: waiting + active + delayed };
        }
        return result;
      };
      const unrelayed = async () =>
        (
          await cluster.db.query(
            `SELECT count(*)::int AS n FROM outbox_event WHERE relayed_at IS NULL`,
          )
        ).rows[0].n as number;
      const drained = await eventually(
        async () => {
          const now = await counts();
          if ((await unrelayed()) > 0) throw new Error('events wait in the outbox');
          for (const [queue, c] of Object.entries(now)) {
            if (c.pending > 0) throw new Error(`${queue}: ${JSON.stringify(c)}`);
          }
          return now;
        },
        120_000,
        500,
      );
      for (const c of Object.values(drained)) expect(c.failed).toBe(0);
      const jobs = Object.values(drained).reduce((sum, c) => sum + c.done, 0);
      expect({ jobs, drained }).toEqual({ jobs: expect.any(Number), drained });
      expect(jobs).toBeGreaterThanOrEqual(1000);
    } finally {
      redis.disconnect();
    }

    // activity: one entry per event of the organization (not billing's counts).
    const { rows: activity } = await cluster.db.query(
      `SELECT e.id, count(a.id)::int AS entries FROM outbox_event e
         LEFT JOIN activity_action a ON a.event_id = e.id
        WHERE e.organization_id = $1 AND e.type NOT LIKE 'billing.%'
        GROUP BY e.id`,
      [org.id],
    );
    expect(activity.length).toBeGreaterThan(2 * HOLDERS);
    expect(activity.filter((r) => r.entries !== 1)).toEqual([]);

    // webhooks: each event once at each endpoint it matches (no fault: no redelivery either).
    const { rows: published } = await cluster.db.query(
      `SELECT DISTINCT event_id, event_type FROM webhook_delivery WHERE NOT test`,
    );
    await eventually(async () => receiver.at('/all').length >= published.length, 60_000, 250);
    const once = (path: string) => {
      const ids = receiver.at(path).map((r) => r.event.id);
      expect(new Set(ids).size).toBe(ids.length);
      return new Set(ids);
    };
    const all = once('/all');
    for (const { event_id } of published) expect(all.has(event_id)).toBe(true);
    const members = once('/members');
    expect(members.size).toBe(published.filter((p) => p.event_type === 'member.added').length);
    expect(members.size).toBe(HOLDERS);

    // billing-counts: every count event asked for one push, all pushed; the provider holds the
    // final counts, in a few debounced pushes rather than one per change.
    const { rows: countEvents } = await cluster.db.query(
      `SELECT count(*)::int AS n FROM outbox_event WHERE organization_id = $1 AND type LIKE 'billing.%'`,
      [org.id],
    );
    await eventually(
      async () => {
        const { rows } = await cluster.db.query(
          `SELECT requested_seq, pushed_seq FROM billing_count_sync WHERE organization_id = $1`,
          [org.id],
        );
        return rows[0]?.pushed_seq === rows[0]?.requested_seq;
      },
      60_000,
      250,
    );
    const { rows: sync } = await cluster.db.query(
      `SELECT requested_seq, pushed_seq, pushed_members, pushed_shareholders
         FROM billing_count_sync WHERE organization_id = $1`,
      [org.id],
    );
    expect(sync[0].requested_seq).toBe(countEvents[0].n);
    const quantities = Object.fromEntries(
      [...billing.quantities.get(providerId)!].map(([id, q]) => [
        billing.components.get(id)!.handle,
        q,
      ]),
    );
    expect(quantities).toEqual({
      members: sync[0].pushed_members,
      shareholders: sync[0].pushed_shareholders,
    });
    expect(quantities.shareholders).toBe(HOLDERS);
    expect(
      billing.requestsTo('POST', `/subscriptions/${providerId}/allocations.json`).length,
    ).toBeLessThan(countEvents[0].n / 2);

    // referral: each user who registered with the code is linked to the owner once.
    const { rows: links } = await cluster.db.query(
      `SELECT invitee_user_id, referrer_user_id FROM referral_link WHERE referrer_user_id = $1`,
      [owner.user.id],
    );
    expect(links.map((l) => l.invitee_user_id).sort()).toEqual(
      joiners.map((j) => j.user.id).sort(),
    );

    // chat: each joiner has one chat account, and is in the organization's team once.
    await eventually(
      async () => {
        const inTeam = chat.members(teamId).map((m) => m.user_id);
        const accounts = joiners.map((j) =>
          [...chat.users.values()].filter((u) => u.email === j.email).map((u) => u.id),
        );
        for (const ids of accounts) {
          if (ids.length !== 1) throw new Error(`chat accounts: ${JSON.stringify(accounts)}`);
          if (inTeam.filter((id) => id === ids[0]).length !== 1) throw new Error('not in team');
        }
        return true;
      },
      60_000,
      250,
    );

    // Every consumer that keeps a processed marker wrote exactly one per event it got.
    const { rows: markers } = await cluster.db.query(
      `SELECT consumer, count(*)::int AS n, count(DISTINCT event_id)::int AS events
         FROM processed_event GROUP BY consumer`,
    );
    for (const m of markers) expect(m.n).toBe(m.events);
    expect(markers.map((m) => m.consumer)).toEqual(
      expect.arrayContaining(['activity', 'billing-counts', 'referral']),
    );
  }, 300_000);

  it('runs each gateway hook once (agent-hook-run) and takes its summary into one heartbeat (agent-heartbeat)', async () => {
    const RUNS = 30;
    const runIds = await Promise.all(
      Array.from({ length: RUNS }, async (_, n) => {
        const res = await cluster.instances[n % 2].http
          .post('/hooks/agent')
          .set('Authorization', `Bearer ${HOOKS_TOKEN}`)
          .send({
            message: `job-${n}`,
            name: 'CRM',
            sessionKey: `hook:crm:${n}`,
            organization: org.id,
          })
          .expect(202);
        return res.body.runId as string;
      }),
    );
    expect(new Set(runIds).size).toBe(RUNS);
    const replies = () => chat.posts.map((p) => p.message).filter((m) => /^Done job-\d+$/.test(m));
    const summaries = () =>
      llm.requests.flatMap(
        (r) => JSON.stringify(r.body.messages).match(/System: Hook CRM: Done job-\d+/g) ?? [],
      );
    await eventually(
      async () => {
        if (replies().length < RUNS || new Set(summaries()).size < RUNS) {
          throw new Error(
            `${replies().length} replies, ${new Set(summaries()).size} summaries of ${RUNS}; ${llm.requests.length} model calls, the last ${JSON.stringify(llm.requests.at(-1)?.body.messages).slice(0, 1500)}`,
          );
        }
        return true;
      },
      90_000,
      250,
    );
    // Each run's reply posted once; each run's summary read by exactly one heartbeat.
    const posted = replies().sort();
    expect(posted).toEqual(Array.from({ length: RUNS }, (_, n) => `Done job-${n}`).sort());
    const runRequests = llm.requests.filter(
      (r) =>
        /job-\d+/.test(JSON.stringify(r.body.messages)) &&
        !JSON.stringify(r.body.messages).includes('System: '),
    );
    expect(runRequests).toHaveLength(RUNS);
    const seen = summaries();
    expect(seen).toHaveLength(new Set(seen).size);
  }, 180_000);

  it('analyses each onboarding once (agent-onboarding), started on either instance', async () => {
    const ONBOARDINGS = 16;
    const ids = await Promise.all(
      Array.from({ length: ONBOARDINGS }, async (_, n) => {
        const res = await cluster.instances[n % 2].http
          .post('/v1/agent/onboarding/create')
          .set('X-Forwarded-For', randomIp())
          .send({
            email: `onboard-${n}-${prefix.slice(7, 15)}@example.test`,
            initialPrompt: `Onboarding prompt ${n}`,
          })
          .expect(201);
        return res.body.id as string;
      }),
    );
    for (const [n, id] of ids.entries()) {
      await eventually(
        async () => {
          const res = await cluster.instances[(n + 1) % 2].http
            .get(`/v1/agent/onboarding/analysis-status/${id}`)
            .expect(200);
          if (res.body.status !== 'analyzed') throw new Error(res.body.status);
          return true;
        },
        90_000,
        250,
      );
    }
    // One call to the model per onboarding.
    for (let n = 0; n < ONBOARDINGS; n++) {
      const calls = llm.requests.filter((r) =>
        new RegExp(`Onboarding prompt ${n}\\b`).test(JSON.stringify(r.body.messages)),
      );
      expect({ n, calls: calls.length }).toEqual({ n, calls: 1 });
    }
  }, 180_000);

  it('applies each organization’s credit once when the provider was down at signup (credit-redemption)', async () => {
    const ORGS = 6;
    // The provider answers no adjustment until the signups are made: each redemption is left
    // pending for the credit-redemption queue, whose retries either instance takes.
    let down = true;
    const stop = billing.during(async () => {
      if (down) throw new Error('adjustments unavailable');
    }, /\/adjustments\.json$/);
    try {
      const orgs = await Promise.all(
        Array.from({ length: ORGS }, async (_, n) => {
          const made = (
            await owner
              .to(cluster.instances[n % 2])
              .post('/v1/organization')
              .send({ name: `Credit ${n}` })
              .expect(201)
          ).body as { id: string; entity: string };
          await cluster.db.query(
            `INSERT INTO credit_entry (id, entity_id, kind, amount, currency, movement_id)
             VALUES (gen_random_uuid(), $1, 'grant', $2, 'USD', gen_random_uuid())`,
            [made.entity, `${10 + n}.00`],
          );
          await owner
            .to(cluster.instances[(n + 1) % 2])
            .post(`/v1/organization/${made.id}/subscription`)
            .send({ productHandle: 'starter' })
            .expect(201);
          return made;
        }),
      );
      const redemptions = async () =>
        (
          await cluster.db.query(
            `SELECT entity_id, amount::text, state FROM credit_redemption WHERE entity_id = ANY($1)`,
            [orgs.map((o) => o.entity)],
          )
        ).rows as { entity_id: string; amount: string; state: string }[];
      await eventually(async () => (await redemptions()).length === ORGS, 60_000, 250);
      expect((await redemptions()).every((r) => r.state === 'pending')).toBe(true);
      down = false;
      await eventually(
        async () => (await redemptions()).every((r) => r.state === 'applied'),
        90_000,
        500,
      );
      for (const [n, o] of orgs.entries()) {
        const subscription = [...billing.subscriptions.values()].find(
          (x) => x.customer.reference === o.entity,
        )!;
        const credits = billing.adjustments.filter((a) => a.subscription_id === subscription.id);
        expect(credits.map((a) => a.amount_in_cents)).toEqual([-(10 + n) * 100]);
      }
      const { rows: balances } = await cluster.db.query(
        `SELECT entity_id, sum(amount)::numeric(20,2)::text AS balance FROM credit_entry
          WHERE entity_id = ANY($1) GROUP BY entity_id`,
        [orgs.map((o) => o.entity)],
      );
      expect(balances.map((b) => b.balance)).toEqual(Array(ORGS).fill('0.00'));
    } finally {
      stop();
    }
  }, 180_000);
});

/**
 * Every scheduled job (`@Scheduled`, and each `@Retention`) of two instances on one Redis, driven
 * through the same clock tick: each period's run happens on exactly one of them, whichever asks
 * first (the instances' own timers included).
 */
describe('scheduled jobs across two instances', () => {
  const clock = new TestClock().freeze('2031-03-03T00:00:00Z');
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const redisPrefix = testRedisPrefix();
    a = await createTestApp({ database, redisPrefix, overrides: clock.override });
    b = await createTestApp({ database, redisPrefix, overrides: clock.override });
  }, 120_000);
  afterAll(async () => {
    await b?.close({ keepData: true });
    await a?.close();
  });

  it('runs each scheduled job once per period across both', async () => {
    const schedulers = [a, b].map((t) => t.get<Scheduler>(Scheduler));
    // Each run with the clock's time it started at: a period is `floor(time / every)`.
    const runs: { name: string; at: number }[] = [];
    for (const scheduler of schedulers) {
      const start = (scheduler as unknown as { start: (job: { name: string }) => unknown }).start;
      jest.spyOn(scheduler as never, 'start' as never).mockImplementation(function (
        this: Scheduler,
        job: { name: string },
      ) {
        runs.push({ name: job.name, at: clock.nowMs() });
        return start.call(this, job);
      } as never);
    }
    const jobs = schedulers[0].list().filter((j) => j.every > 0);
    expect(jobs.map((j) => j.name)).toEqual(
      expect.arrayContaining([
        'billing:count-sweep',
        'webhooks:sweep',
        'referral:redemption-sweep',
        'referral:credit-expiry',
        'hooks:heartbeat',
      ]),
    );
    for (const job of jobs) {
      for (let period = 0; period < 3; period++) {
        const slot = Math.floor(clock.nowMs() / job.every);
        // Both ask, twice each (as their timers do within a period), at the same instant.
        const asked = await Promise.all(
          [...schedulers, ...schedulers].map((s) => s.tick(job.name)),
        );
        // Runs of this period, also one an instance's own timer started first.
        const ran = runs.filter(
          (r) => r.name === job.name && Math.floor(r.at / job.every) === slot,
        ).length;
        expect({ job: job.name, period, ran }).toEqual({ job: job.name, period, ran: 1 });
        expect(asked.filter(Boolean).length).toBeLessThanOrEqual(1);
        // Let the run end before the next period (a run never overlaps its own previous one).
        await eventually(
          async () =>
            !schedulers.some((s) =>
              (s as unknown as { running: Map<string, unknown> }).running.has(job.name),
            ),
          10_000,
        );
        clock.advance(job.every);
      }
    }
  }, 120_000);
});
