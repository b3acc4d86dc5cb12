import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { QueueName } from '../../../src/events';
import { Scheduler } from '../../../src/scheduler';
import { WebhookDeliveries } from '../../../src/webhooks/delivery/webhook-deliveries.service';
import { WebhookSweep } from '../../../src/webhooks/delivery/webhook-sweep';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import {
  attemptsOf,
  controlClock,
  deliveriesOf,
  leaseFree,
  receivedAt,
  registerEndpoint,
  webhookPath,
} from '../../support/webhooks';
import { ownerWithOrg } from '../../support/world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('webhook retries and endpoint health (spec section 6)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let clock: ReturnType<typeof controlClock>;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, mail: true });
    receiver = await WebhookReceiver.start();
  });
  beforeEach(() => {
    clock = controlClock(t);
    clock.set(new Date('2026-12-01T09:00:00.000Z'));
  });
  afterEach(() => {
    clock.restore();
    receiver.respond = () => ({ status: 200, body: 'ok' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** The next notice of a disabled endpoint to `email` (skipping its sign-up mail). */
  async function disabledNotice(email: string) {
    for (;;) {
      const mail = await t.smtp.nextMail(email);
      if (/Webhook endpoint disabled/.test(mail.subject)) return mail;
    }
  }

  let n = 0;
  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Retry Inc.');
    const path = `/r${++n}`;
    const endpoint = await registerEndpoint(owner.agent, org.id, receiver, { path });
    const rename = (name: string) =>
      owner.agent.patch(`/v1/organization/${org.id}`).send({ name }).expect(200);
    /**
     * Runs the endpoint's worker at the clock's time, as its wake-up would, until nothing is due.
     * A wake-up job may hold the endpoint when this drain tries (this one then leaves it to that
     * worker, which may have looked for due deliveries before the clock moved): so drain again
     * until no delivery is due at the clock's time.
     */
    const drain = () =>
      eventually(async () => {
        await leaseFree(t, endpoint.id);
        await t.get<WebhookDeliveries>(WebhookDeliveries).drain(endpoint.id);
        const [due] = (await t.get<DataSource>(DataSource).query(
          `SELECT count(*)::int AS n FROM webhook_delivery
            WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $2`,
          [endpoint.id, clock.now],
        )) as { n: number }[];
        return due.n === 0;
      });
    const attempts = () => attemptsOf(t, endpoint.id);
    const listed = async () =>
      (await owner.agent.get(webhookPath(org.id)).expect(200)).body.data[0] as {
        active: boolean;
        disabledAt: string | null;
        disabledReason: string | null;
        lastDelivery: { status: string; httpStatus: number } | null;
      };
    return { owner, org, path, endpoint, rename, drain, attempts, listed };
  }

  /** Answers `status` to requests at `path` whose organization name starts with `prefix`. */
  const failWhen = (path: string, status: number, prefix = '') => {
    receiver.respond = (r) =>
      r.path === path && String(r.event.data.object.name ?? '').startsWith(prefix)
        ? { status, body: `status ${status}` }
        : { status: 200, body: 'ok' };
  };

  it('makes 6 attempts at once, +1 min, +5 min, +30 min, +2 h and +24 h, each from the failure before, then fails', async () => {
    const { path, endpoint, rename, drain, attempts, listed } = await world();
    failWhen(path, 500);
    const t0 = clock.now.getTime();
    await rename('Failing');
    await eventually(async () => (await attempts()).length === 1);
    await leaseFree(t, endpoint.id);
    expect(await listed()).toMatchObject({ lastDelivery: { status: 'pending', httpStatus: 500 } });

    const expected = [0, 1, 6, 36, 156, 1596].map((m) => t0 + m * MINUTE);
    for (const due of expected.slice(1)) {
      clock.set(new Date(due - 1000));
      await drain();
      expect((await attempts()).map((a) => a.timestamp.getTime())).not.toContain(due);
      clock.set(new Date(due));
      await drain();
    }
    const made = await attempts();
    expect(made.map((a) => a.timestamp.getTime())).toEqual(expected);
    expect(made.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    const got = receiver.at(path);
    expect(got).toHaveLength(6);
    // The same event id on every retry, a fresh signature time each.
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(got.map((r) => Number(r.headers['webhook-timestamp']) * 1000)).toEqual(expected);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);

    clock.advance(7 * DAY);
    await drain();
    expect(receiver.at(path)).toHaveLength(6);
    expect(await listed()).toMatchObject({
      active: true,
      lastDelivery: { status: 'failed', httpStatus: 500 },
    });
  });

  it('counts a redirect as a failure and does not follow it; a later success ends the delivery', async () => {
    const { path, endpoint, rename, drain, attempts, listed } = await world();
    receiver.respond = (r) =>
      r.path === path
        ? { status: 302, headers: { location: receiver.url(`${path}-moved`) } }
        : { status: 200 };
    await rename('Moved');
    await eventually(async () => (await attempts()).length === 1);
    expect((await attempts())[0].http_status).toBe(302);
    expect(receiver.at(`${path}-moved`)).toEqual([]);
    expect((await deliveriesOf(t, endpoint.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
    });

    receiver.respond = () => ({ status: 204 });
    clock.advance(MINUTE);
    await drain();
    expect((await deliveriesOf(t, endpoint.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      next_attempt_at: null,
    });
    expect(await listed()).toMatchObject({
      lastDelivery: { status: 'succeeded', httpStatus: 204 },
    });
  });

  it('disables an endpoint that answers 410 at once, ends its pending deliveries and tells its admins', async () => {
    const { owner, org, path, endpoint, rename, drain, listed } = await world();
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const updates = async () =>
      (await deliveriesOf(t, endpoint.id)).filter((d) => d.event_type === 'organization.updated');
    failWhen(path, 500, 'Retry');
    await rename('Retry me');
    await eventually(async () => (await updates())[0]?.attempts === 1);
    failWhen(path, 410);
    await rename('Gone');
    await eventually(async () => (await listed()).active === false);
    expect(await listed()).toMatchObject({
      active: false,
      disabledAt: clock.now.toISOString(),
      disabledReason: 'gone',
      lastDelivery: { status: 'failed', httpStatus: 410 },
    });
    // The earlier delivery waiting for its retry ended with it.
    expect((await updates()).map((d) => d.status)).toEqual(['failed', 'failed']);
    clock.advance(DAY);
    await rename('Nobody listens');
    await drain();
    const sent = receiver.at(path).length;
    expect(receiver.at(path).map((r) => r.event.data.object.name)).not.toContain('Nobody listens');

    const actions = async (agent: typeof owner.agent) =>
      (await agent.get(`/v1/organization/${org.id}/action`).expect(200)).body as {
        type: string;
        description: string;
      }[];
    const entry = await eventually(async () =>
      (await actions(owner.agent)).find((a) => a.type === 'webhook.disabled'),
    );
    expect(entry?.description).toMatch(/410/);
    expect((await actions(viewer.agent)).map((a) => a.type)).not.toContain('webhook.disabled');
    const mail = await disabledNotice(owner.email);
    expect(mail.text).toContain(endpoint.id);
    const events = await owner.agent.get(`/v1/organization/${org.id}/event`).expect(200);
    expect(events.body.data.map((e: { type: string }) => e.type)).not.toContain('webhook.disabled');

    const enabled = await owner.agent
      .patch(`${webhookPath(org.id)}/${endpoint.id}`)
      .send({ active: true })
      .expect(200);
    expect(enabled.body).toMatchObject({ active: true, disabledAt: null, disabledReason: null });
    receiver.respond = () => ({ status: 200 });
    await rename('Back');
    const got = await receivedAt(receiver, path, sent + 1);
    expect(got[sent].event.data.object.name).toBe('Back');
  });

  it('disables an endpoint after 3 days of nothing but failures; a success restarts the count', async () => {
    const { owner, path, endpoint, rename, drain, listed } = await world();
    failWhen(path, 503, 'Fail');
    const start = clock.now.getTime();
    // The wake-up jobs wait in real time: the test runs the worker itself once the event is in.
    const deliver = async (name: string, at: number) => {
      clock.set(new Date(at));
      const before = (await deliveriesOf(t, endpoint.id)).length;
      await rename(name);
      await eventually(async () => (await deliveriesOf(t, endpoint.id)).length > before).catch(
        async (e) => {
          throw new Error(
            `${name}: ${(e as Error).message} ${JSON.stringify(await deliveriesOf(t, endpoint.id))}`,
          );
        },
      );
      await leaseFree(t, endpoint.id);
      await drain();
    };
    await deliver('Fail 1', start);
    await deliver('Works', start + 2 * DAY);
    expect(await listed()).toMatchObject({ active: true });
    // The streak starts again at the first failure after the success.
    const streak = start + 2 * DAY + MINUTE;
    await deliver('Fail 2', streak);
    await deliver('Fail 3', streak + 3 * DAY - MINUTE);
    expect(await listed()).toMatchObject({ active: true, disabledReason: null });
    await deliver('Fail 4', streak + 3 * DAY);
    expect(await listed()).toMatchObject({
      active: false,
      disabledReason: 'failing',
      disabledAt: new Date(streak + 3 * DAY).toISOString(),
    });
    expect((await deliveriesOf(t, endpoint.id)).filter((d) => d.status === 'pending')).toEqual([]);
    const mail = await disabledNotice(owner.email);
    expect(mail.text).toMatch(/failed for 3 days/);
  });

  it('cancels pending retries when the endpoint is deleted', async () => {
    const { owner, org, path, endpoint, rename, attempts } = await world();
    failWhen(path, 500);
    await rename('Doomed');
    await eventually(async () => (await attempts()).length === 1);
    await leaseFree(t, endpoint.id);
    await owner.agent.delete(`${webhookPath(org.id)}/${endpoint.id}`).expect(200);
    expect(await deliveriesOf(t, endpoint.id)).toEqual([]);
    clock.advance(DAY);
    await t.get<WebhookSweep>(WebhookSweep).sweep(0);
    await t.get<WebhookDeliveries>(WebhookDeliveries).drain(endpoint.id);
    expect(receiver.at(path)).toHaveLength(1);
  });

  it('delivers what is due when the wake-ups were lost (Redis emptied): the sweep wakes the endpoint', async () => {
    const { path, endpoint, rename, attempts } = await world();
    failWhen(path, 500);
    await rename('Lost');
    await eventually(async () => (await attempts()).length === 1);
    await leaseFree(t, endpoint.id);
    const queue = t.get<Queue>(getQueueToken(QueueName.Webhooks));
    await queue.clean(0, 'delayed');
    expect(await queue.getDelayedCount()).toBe(0);
    receiver.respond = () => ({ status: 200 });
    clock.advance(MINUTE + 1000);
    expect(await t.get<WebhookSweep>(WebhookSweep).sweep(0)).toBeGreaterThanOrEqual(1);
    await receivedAt(receiver, path, 2);
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0].status === 'succeeded');
  });

  it('deletes ended deliveries and their attempts after 30 days, never a pending one', async () => {
    const { endpoint, rename, attempts } = await world();
    await rename('Kept');
    await eventually(async () => (await attempts()).length === 1);
    const ds = t.get<DataSource>(DataSource);
    // Ages counted from the app's clock (the retention's), not the database's.
    const age = (status: string, days: number) =>
      ds.query(
        `INSERT INTO webhook_delivery (id, endpoint_id, organization_id, event_id, event_type,
           event_created, body, status, attempts, next_attempt_at, created)
         SELECT 'whd_' || md5(random()::text), w.id, w.organization_id, 'evt_old', 'organization.updated',
                $4::timestamptz - make_interval(days => $3), '{}', $2::varchar, 1,
                CASE WHEN $2::varchar = 'pending' THEN $4::timestamptz + interval '1 day' END,
                $4::timestamptz - make_interval(days => $3)
           FROM webhook_endpoint w WHERE w.id = $1`,
        [endpoint.id, status, days, clock.now],
      );
    await age('succeeded', 31);
    await age('failed', 40);
    await age('pending', 31);
    await age('failed', 29);
    await ds.query(
      `INSERT INTO webhook_attempt (id, delivery_id, endpoint_id, event_id, event_type, attempt,
         timestamp, http_status, response_time)
       SELECT gen_random_uuid(), d.id, d.endpoint_id, d.event_id, d.event_type, 1, d.created, 500, 1
         FROM webhook_delivery d WHERE d.endpoint_id = $1 AND d.event_id = 'evt_old'`,
      [endpoint.id],
    );
    expect(
      await t.get<Scheduler>(Scheduler).run('webhooks:delivery-cleanup'),
    ).toBeGreaterThanOrEqual(2);
    const left = await deliveriesOf(t, endpoint.id);
    expect(left.map((d) => `${d.event_id} ${d.status}`).sort()).toEqual(
      [
        'evt_old failed',
        'evt_old pending',
        expect.stringMatching(/^evt_[0-9a-f]{32} succeeded$/),
      ].sort(),
    );
    expect((await attempts()).map((a) => a.event_id).sort()).toEqual(
      [left.find((d) => d.status === 'succeeded')!.event_id, 'evt_old', 'evt_old'].sort(),
    );
  });
});
