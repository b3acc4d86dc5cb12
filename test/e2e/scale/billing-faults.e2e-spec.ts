import Redis from 'ioredis';
import type { EntityManager } from 'typeorm';
import { readTally } from '../../../src/cap-table/ledger/equity-tally';
import { FakeBilling } from '../../fakes/billing';
import { eventually, sleep } from '../../support/eventually';
import { RedisProcess } from '../../support/redis-process';
import { Cluster, instanceOwningPort, registerAndLogIn, Session, startCluster } from './cluster';

const ALLOCATIONS = /^\/subscriptions\/\d+\/allocations\.json$/;

/**
 * Seat count pushes across two instances on one Redis (data kept): an instance killed while the
 * provider holds its push, one killed right after a change's commit (before its debounced push),
 * and Redis killed and restarted under changes. Each time the provider ends holding the counts of
 * the cap table, and `billing_count_sync` has pushed every change it was asked for.
 */
describe('billing count pushes through faults (two instances)', () => {
  const redis = new RedisProcess();
  let fake: FakeBilling;
  let cluster: Cluster;
  let owner: Session;

  beforeAll(async () => {
    await redis.start();
    fake = await FakeBilling.start();
    fake.seedCatalogue();
    cluster = await startCluster({
      redis,
      env: { ...fake.env(), BILLING_COUNTS_DEBOUNCE_MS: '1500' },
    });
    owner = await registerAndLogIn(cluster, cluster.instances[0]);
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
    await fake?.close();
    await redis.kill();
  });

  const on = (i: number) => owner.to(cluster.instances[i]);
  /** Instance `i`, or the other one while `i` is down. */
  const alive = (i: number) =>
    cluster.instances[i].child.exitCode === null && cluster.instances[i].child.signalCode === null
      ? i
      : 1 - i;

  /** An organization (made on B) with a share class and a live subscription (made on A). */
  async function company() {
    const org = (await on(1).post('/v1/organization').send({ name: 'Counts Inc.' }).expect(201))
      .body as { id: string; entity: string };
    const security = await on(0)
      .post(`/v1/organization/${org.id}/security`)
      .send({ name: 'Common', classType: 'common', idPrefix: 'CS-', authorizedShares: '1000000' })
      .expect(201);
    await on(0)
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(201);
    const providerId = [...fake.subscriptions.values()].find(
      (s) => s.customer.reference === org.entity,
    )!.id;
    return { id: org.id, security: security.body.id as string, providerId };
  }

  type Company = Awaited<ReturnType<typeof company>>;

  /** A new member given shares, on instance `i`: two count changes. False when not acknowledged. */
  async function holder(i: number, c: Company): Promise<boolean> {
    const tag = `${Date.now()}-${Math.random()}`;
    const member = await on(i)
      .post(`/v1/organization/${c.id}/member`)
      .send({ name: `Holder ${tag}`, email: `h-${tag}@example.com` })
      .catch(() => undefined);
    if (member?.status !== 201) return false;
    const issued = await on(i)
      .post(`/v1/organization/${c.id}/shareholding`)
      .send({ issueDate: '2024-01-15', member: member.body.id, security: c.security, quantity: 10 })
      .catch(() => undefined);
    return issued?.status === 201;
  }

  /** The counts the provider holds for the subscription, by component handle. */
  const provided = (providerId: number) =>
    Object.fromEntries(
      [...(fake.quantities.get(providerId) ?? new Map<number, number>())].map(([id, q]) => [
        fake.components.get(id)!.handle,
        q,
      ]),
    );

  const db = {
    query: async (sql: string, params: unknown[]) => (await cluster.db.query(sql, params)).rows,
  } as unknown as EntityManager;

  /** The provider holds the cap table's counts of now, and every change asked for is pushed. */
  async function converged(c: Company, timeoutMs: number) {
    return eventually(
      async () => {
        const tally = await readTally(db, c.id);
        const { rows } = await cluster.db.query(
          `SELECT requested_seq, pushed_seq, pushed_members, pushed_shareholders
             FROM billing_count_sync WHERE organization_id = $1`,
          [c.id],
        );
        const sync = rows[0];
        const at = provided(c.providerId);
        if (
          !sync ||
          sync.requested_seq !== sync.pushed_seq ||
          at.members !== tally.members ||
          at.shareholders !== tally.shareholders
        ) {
          throw new Error(
            `provider ${JSON.stringify(at)}, tally ${JSON.stringify(tally)}, sync ${JSON.stringify(sync)}`,
          );
        }
        return { tally, sync };
      },
      timeoutMs,
      250,
    );
  }

  /**
   * What a killed instance held lapses (time passes, shortened here): its push lease (2 minutes,
   * in the table) and its Bull job locks (QUEUE_LOCK_MS, in Redis), so the survivor's stalled-job check and
   * the instance's restart take its jobs again.
   */
  async function heldLapse() {
    await cluster.db.query(
      `UPDATE billing_count_sync SET push_lease_until = now() - interval '1 second'
        WHERE push_lease IS NOT NULL`,
    );
    // Bull's keys are under `<prefix>bull` or the hash-tagged `{<prefix>bull}`.
    const client = new Redis(redis.url);
    try {
      const locks = await client.keys('*bull*:billing-counts:*:lock');
      if (locks.length) await client.del(...locks);
    } finally {
      client.disconnect();
    }
  }

  it('the provider holds the final counts after the pushing instance is killed mid-push', async () => {
    const c = await company();
    let killed: Promise<number> | undefined;
    const stop = fake.during(async (request) => {
      if (killed || !request.remotePort) return;
      const sender = instanceOwningPort(cluster.instances, request.remotePort);
      if (!sender) return;
      // The push reached the provider; its instance dies before the answer (which is then
      // written to the closed connection: the allocation is made, the instance never knew).
      killed = sender.stop('SIGKILL').then(() => cluster.instances.indexOf(sender));
      await killed;
    }, ALLOCATIONS);
    try {
      for (let n = 0; n < 3; n++) expect(await holder(alive(n % 2), c)).toBe(true);
      await eventually(async () => killed !== undefined, 30_000, 100);
    } finally {
      stop();
    }
    const index = await killed!;
    expect(fake.requestsTo('POST', `/subscriptions/${c.providerId}/allocations.json`)).toHaveLength(
      1,
    );
    await heldLapse();
    const back = cluster.restart(index);
    // Changes on the survivor while the other comes back.
    for (let n = 0; n < 2; n++) expect(await holder(1 - index, c)).toBe(true);
    await back;
    const { tally } = await converged(c, 90_000);
    expect(tally).toMatchObject({ members: 5, shareholders: 5 });
  }, 240_000);

  it('the provider holds the final counts after an instance is killed between commit and push', async () => {
    const c = await company();
    for (let n = 0; n < 2; n++) expect(await holder(0, c)).toBe(true);
    // Acknowledged; its debounced push (1.5 s) is not made yet, or its event not even relayed.
    expect(await holder(0, c)).toBe(true);
    await cluster.instances[0].stop('SIGKILL');
    // The last change's push was still to come (debounced) when the instance died.
    expect(provided(c.providerId).members ?? 0).toBeLessThan(3);
    await heldLapse();
    const back = cluster.restart(0);
    expect(await holder(1, c)).toBe(true);
    const { tally } = await converged(c, 90_000);
    expect(tally).toMatchObject({ members: 4, shareholders: 4 });
    await back;
  }, 240_000);

  it('the provider holds the final counts after a Redis restart (data kept) under changes', async () => {
    const c = await company();
    for (let n = 0; n < 4; n++) expect(await holder(n % 2, c)).toBe(true);
    // Within the debounce: pushes are waiting in Redis when it dies.
    await redis.kill();
    for (let n = 0; n < 4; n++) await holder(n % 2, c);
    await sleep(1000);
    await redis.start();
    // Each instance reconnects on its own backoff: both are back before the changes that must land.
    for (const i of [0, 1]) await eventually(async () => holder(i, c), 30_000, 250);
    for (let n = 0; n < 4; n++) expect(await holder(n % 2, c)).toBe(true);
    const { tally } = await converged(c, 90_000);
    expect(tally.members).toBeGreaterThanOrEqual(9);
  }, 180_000);
});
