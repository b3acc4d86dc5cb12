import { Received, WebhookReceiver } from '../../fakes/webhook-receiver';
import { eventually, sleep } from '../../support/eventually';
import { Instance } from '../../support/instances';
import { RedisProcess } from '../../support/redis-process';
import { Cluster, instanceOwningPort, registerAndLogIn, Session, startCluster } from './cluster';

const PATHS = ['/w1', '/w2'];

/**
 * At-least-once webhook delivery across two instances on one Redis (with its data kept): an
 * instance killed with SIGKILL while it sends (either of them), and Redis killed and restarted
 * under writes. Every acknowledged change reaches every endpoint, and every copy of an event
 * carries the event's id as `webhook-id` and the same body.
 */
describe('webhook delivery through faults (two instances)', () => {
  const redis = new RedisProcess();
  let receiver: WebhookReceiver;
  let cluster: Cluster;
  let owner: Session;
  let org: string;
  /** The names of the renames the service acknowledged: each is one organization.updated. */
  const acknowledged: string[] = [];
  let writes = 0;

  beforeAll(async () => {
    await redis.start();
    receiver = await WebhookReceiver.start();
    cluster = await startCluster({ redis });
    const [a, b] = cluster.instances;
    owner = await registerAndLogIn(cluster, a);
    // The session made on A is B's too (sessions live in Redis).
    const created = await owner.to(b).post('/v1/organization').send({ name: 'Faults Inc.' });
    expect(created.status).toBe(201);
    org = created.body.id;
    for (const [i, path] of PATHS.entries()) {
      await owner
        .to(cluster.instances[i])
        .post(`/v1/organization/${org}/webhook`)
        .send({ url: receiver.url(path), events: ['organization.updated'] })
        .expect(201);
    }
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
    await receiver?.close();
    await redis.kill();
  });

  /** Renames the organization on the instance; records the name when acknowledged. */
  async function rename(instance: Instance): Promise<boolean> {
    const name = `Faults ${++writes}`;
    const res = await owner
      .to(instance)
      .patch(`/v1/organization/${org}`)
      .send({ name })
      .catch(() => undefined);
    if (res?.status !== 200) return false;
    acknowledged.push(name);
    return true;
  }

  const updates = (path: string) =>
    receiver.at(path).filter((r) => r.event.type === 'organization.updated');

  /** Every acknowledged rename arrived at every endpoint (at least once). */
  async function allDelivered(timeoutMs: number) {
    await eventually(
      async () => {
        for (const path of PATHS) {
          const names = new Set(updates(path).map((r) => r.event.data.object.name));
          const missing = acknowledged.filter((n) => !names.has(n));
          if (missing.length) throw new Error(`${path} misses ${missing.join(', ')}`);
        }
        return true;
      },
      timeoutMs,
      200,
    );
  }

  /** The 60 s hold a killed worker had on its endpoints lapses (time passes, in the table). */
  const leasesLapse = () =>
    cluster.db.query(
      `UPDATE webhook_endpoint SET lease_until = now() - interval '1 second'
        WHERE lease_token IS NOT NULL`,
    );

  it('delivers every event when the instance sending it is killed, each instance in turn', async () => {
    const killedIndexes: number[] = [];
    const killedEvents: Received[] = [];
    for (let round = 0; round < 2; round++) {
      let killed: ((i: number) => void) | undefined;
      const kill = new Promise<number>((done) => (killed = done));
      receiver.respond = async (r) => {
        const sender =
          killed && r.remotePort && instanceOwningPort(cluster.instances, r.remotePort);
        const index = sender ? cluster.instances.indexOf(sender) : -1;
        // The first send of this round by an instance not yet killed: it dies before it hears
        // the answer, so it cannot record the attempt.
        if (sender && index >= 0 && !killedIndexes.includes(index) && killed) {
          const done = killed;
          killed = undefined;
          killedEvents.push(r);
          await sender.stop('SIGKILL');
          done(index);
        }
        return { status: 200, body: 'ok' };
      };
      let index: number | undefined;
      void kill.then((i) => (index = i));
      const deadline = Date.now() + 45_000;
      for (let n = 0; index === undefined && Date.now() < deadline; n++) {
        await rename(cluster.instances[n % 2]);
        await sleep(150);
      }
      expect(index).toBeDefined();
      killedIndexes.push(index!);
      receiver.respond = () => ({ status: 200, body: 'ok' });
      // More changes on the survivor while the other is down.
      const survivor = cluster.instances[1 - index!];
      for (let n = 0; n < 5; n++) expect(await rename(survivor)).toBe(true);
      await leasesLapse();
      // The instance comes back; its start-up sweep wakes the endpoints the dead worker held.
      await cluster.restart(index!);
      await allDelivered(60_000);
    }
    expect(killedIndexes.sort()).toEqual([0, 1]);
    // Each event a dying instance was sending arrived again, with the same id and body.
    for (const first of killedEvents) {
      const copies = receiver.at(first.path).filter((r) => r.event.id === first.event.id);
      expect(copies.length).toBeGreaterThanOrEqual(2);
      for (const copy of copies) {
        expect(copy.headers['webhook-id']).toBe(first.event.id);
        expect(copy.body).toBe(first.body);
      }
    }
  }, 240_000);

  it('delivers every event through a Redis restart (data kept) under writes', async () => {
    const before = acknowledged.length;
    for (let n = 0; n < 10; n++) await rename(cluster.instances[n % 2]);
    await redis.kill();
    // Writes while Redis is down: those acknowledged must arrive too.
    for (let n = 0; n < 6; n++) {
      await rename(cluster.instances[n % 2]);
      await sleep(100);
    }
    await sleep(1000);
    await redis.start();
    // The sessions and queued jobs came back with Redis's data: the same cookie works on both.
    await eventually(
      async () => (await rename(cluster.instances[0])) && rename(cluster.instances[1]),
      30_000,
      250,
    );
    for (let n = 0; n < 10; n++) expect(await rename(cluster.instances[n % 2])).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(before + 20);
    await allDelivered(90_000);
  }, 180_000);

  it('sent every copy of an event with its id as webhook-id and the same body', async () => {
    const byId = new Map<string, Received[]>();
    for (const path of PATHS) {
      for (const r of updates(path)) {
        expect(r.headers['webhook-id']).toBe(r.event.id);
        const key = `${path} ${r.event.id}`;
        byId.set(key, [...(byId.get(key) ?? []), r]);
      }
    }
    for (const copies of byId.values()) {
      expect(new Set(copies.map((c) => c.body)).size).toBe(1);
    }
    // One event per acknowledged rename at each endpoint (renames that failed may add their own).
    for (const path of PATHS) {
      const ids = new Set(updates(path).map((r) => r.event.id));
      expect(ids.size).toBeGreaterThanOrEqual(acknowledged.length);
    }
    // Every delivery ends succeeded.
    await eventually(
      async () => {
        const { rows } = await cluster.db.query(
          `SELECT count(*)::int AS n FROM webhook_delivery WHERE status <> 'succeeded' AND NOT test`,
        );
        return rows[0].n === 0;
      },
      60_000,
      250,
    );
  }, 90_000);
});
