import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { QueueName } from '../../../src/events';
import { Scheduler } from '../../../src/scheduler';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { attemptsOf, leaseFree, registerEndpoint } from '../../support/webhooks';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const SWEEP = 'webhooks:sweep';

/**
 * Webhook retries on the app's clock: each retry is due at the clock's time, and when its
 * wake-up is lost the scheduled sweep (once per 30 s across instances) finds it once it is 30 s
 * overdue. The test moves the clock; it waits for no retry.
 */
describe('webhook delivery retries, by moving the clock (service level)', () => {
  // On a whole second just past a sweep period: each move below lands in a period of its own.
  const t0 = Math.ceil(Date.now() / (30 * SECOND)) * 30 * SECOND + SECOND;
  const clock = new TestClock().freeze(t0);
  let t: TestApp;
  let receiver: WebhookReceiver;
  let queue: Queue;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      overrides: clock.override,
    });
    queue = t.get<Queue>(getQueueToken(QueueName.Webhooks));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** The endpoint's wake-ups, waiting or delayed, are lost (Redis lost, a worker killed). */
  const loseWakeUps = async (endpointId: string) => {
    for (const job of await queue.getJobs(['waiting', 'delayed'])) {
      if ((job?.data as { endpointId?: string })?.endpointId === endpointId) await job.remove();
    }
  };
  const queuedFor = async (endpointId: string) =>
    (await queue.getJobs(['waiting', 'delayed', 'active'])).filter(
      (job) => (job?.data as { endpointId?: string })?.endpointId === endpointId,
    ).length;

  it('retries at the clock’s times; a lost wake-up is found by the sweep once 30 s overdue', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Clocked Inc.');
    const endpoint = await registerEndpoint(owner.agent, org.id, receiver, { path: '/clocked' });
    let answered = 0;
    receiver.respond = (r) =>
      r.path === '/clocked' && ++answered <= 2 ? { status: 500 } : { status: 200, body: 'ok' };
    const attempts = () => attemptsOf(t, endpoint.id);
    const scheduler = t.get<Scheduler>(Scheduler);

    await owner.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Renamed' }).expect(200);
    await eventually(async () => (await attempts()).length === 1);
    await leaseFree(t, endpoint.id);
    await loseWakeUps(endpoint.id);

    // Due now (a minute after the failure), not yet overdue: the sweep wakes nothing.
    clock.advance(MINUTE);
    await scheduler.tick(SWEEP);
    expect(await queuedFor(endpoint.id)).toBe(0);
    expect(await attempts()).toHaveLength(1);

    // 30 s overdue, in the next sweep period: the sweep wakes the endpoint.
    clock.advance(30 * SECOND);
    await scheduler.tick(SWEEP);
    await eventually(async () => (await attempts()).length === 2);
    await leaseFree(t, endpoint.id);
    await loseWakeUps(endpoint.id);

    // The third attempt is due 5 minutes after the second failed: a second before, nothing.
    clock.advance(5 * MINUTE - SECOND);
    await scheduler.tick(SWEEP);
    expect(await queuedFor(endpoint.id)).toBe(0);
    expect(await attempts()).toHaveLength(2);
    clock.advance(SECOND + 30 * SECOND);
    await scheduler.tick(SWEEP);
    await eventually(async () => (await attempts()).length === 3);

    expect((await attempts()).map((a) => [a.timestamp.getTime() - t0, a.http_status])).toEqual([
      [0, 500],
      [MINUTE + 30 * SECOND, 500],
      [7 * MINUTE, 200],
    ]);
    // Each request signed at its attempt's time.
    expect(receiver.at('/clocked').map((r) => Number(r.headers['webhook-timestamp']))).toEqual(
      [0, MINUTE + 30 * SECOND, 7 * MINUTE].map((ms) => (t0 + ms) / 1000),
    );
    const [delivery] = (await t
      .get<DataSource>(DataSource)
      .query(`SELECT status, attempts FROM webhook_delivery WHERE endpoint_id = $1`, [
        endpoint.id,
      ])) as { status: string; attempts: number }[];
    expect(delivery).toEqual({ status: 'succeeded', attempts: 3 });
  });
});
