import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LEASE_MS } from '../../../src/webhooks/delivery/delivery-schedule';
import { WebhookSweep } from '../../../src/webhooks/delivery/webhook-sweep';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, createTestDatabase, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { Instance, startInstance } from '../../support/instances';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { controlClock, deliveriesOf, receivedAt, registerEndpoint } from '../../support/webhooks';

const PRIVATE_URLS = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };

describe('at-least-once delivery (issue 21)', () => {
  let receiver: WebhookReceiver;
  let child: Instance | undefined;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await child?.stop();
    for (const app of apps.reverse()) await app.close();
    await receiver.close();
  });

  it('delivers an event whose sending instance was killed after sending, before recording the attempt', async () => {
    const database = await createTestDatabase();
    const redisPrefix = `lltest:${randomBytes(4).toString('hex')}:`;
    // Set up with the relay off: the event waits in the outbox for the instance to be killed.
    const setup = await createTestApp({
      database,
      redisPrefix,
      env: { ...PRIVATE_URLS, OUTBOX_RELAY_INTERVAL_MS: '0' },
    });
    const owner = await loggedInAgent(setup);
    const org = await createOrg(owner.agent, 'Crash Inc.');
    const endpoint = await registerEndpoint(owner.agent, org.id, receiver, { path: '/crash' });
    await owner.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Crashed' }).expect(200);
    await setup.close({ keepData: true });

    const instance = await startInstance(
      {
        ...PRIVATE_URLS,
        DATABASE_URL: database.url,
        REDIS_PREFIX: redisPrefix,
        OUTBOX_RELAY_INTERVAL_MS: '50',
      },
      { waitReady: false },
    );
    child = instance;
    const exited = instance.exited;
    let killed = false;
    receiver.respond = async (r) => {
      if (r.path === '/crash' && !killed) {
        killed = true;
        void instance.stop();
        await exited;
      }
      return { status: 200, body: 'ok' };
    };
    const [first] = await receivedAt(receiver, '/crash', 1, 90_000);
    await exited;
    expect(first.event).toMatchObject({
      type: 'organization.updated',
      data: { object: { name: 'Crashed' } },
    });

    // What the killed instance left: a delivery still due, no attempt recorded.
    const after = await createTestApp({ database, redisPrefix, env: { ...PRIVATE_URLS } });
    apps.push(after);
    const ds = after.get<DataSource>(DataSource);
    const updates = async () =>
      (await deliveriesOf(after, endpoint.id)).filter(
        (d) => d.event_type === 'organization.updated',
      );
    expect(await updates()).toMatchObject([
      { event_id: first.event.id, status: 'pending', attempts: 0 },
    ]);
    expect(
      await ds.query(`SELECT * FROM webhook_attempt WHERE endpoint_id = $1`, [endpoint.id]),
    ).toEqual([]);

    // Once the dead worker's hold on the endpoint lapses, the sweep finds the delivery again.
    const clock = controlClock(after);
    try {
      clock.advance(LEASE_MS + 1000);
      await after.get<WebhookSweep>(WebhookSweep).sweep(0);
      const again = await receivedAt(receiver, '/crash', 2, 20_000);
      const redelivered = again.filter((r) => r.event.id === first.event.id);
      expect(redelivered.length).toBeGreaterThanOrEqual(2);
      expect(redelivered[1].body).toBe(first.body);
      expect(redelivered[1].headers['webhook-id']).toBe(first.event.id);
      await eventually(async () => (await updates())[0].status === 'succeeded');
    } finally {
      clock.restore();
    }
  }, 150_000);
});
