import { Client } from 'pg';
import type { Response } from 'supertest';
import { eventually } from '../../support/eventually';
import type { Instance } from '../../support/instances';
import { verifyLedger } from '../../support/ledger-verify';
import { Cluster, eventCounts, logCounts, ownerWithCapTable, startCluster } from './fault-fixtures';

const KEY = 'Idempotency-Key';
/** Short enough to wait out in a test, long enough for a retry to come well inside it. */
const LEASE_MS = 8000;

/**
 * An `Idempotency-Key` write on instance A, A killed with SIGKILL while the request runs; its
 * retry on instance B (the same session) is refused while A's claim holds, then runs once.
 */
describe('Idempotency-Key taken over from a killed instance', () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    cluster = await startCluster({ env: { IDEMPOTENCY_LEASE_MS: String(LEASE_MS) } });
    [a, b] = await Promise.all([cluster.start(), cluster.start()]);
  }, 240_000);
  afterAll(() => cluster?.close(), 30_000);

  const keyRow = async (key: string) =>
    (
      (await cluster.db.query(
        `SELECT state, status, extract(epoch FROM expires_at - now()) * 1000 AS "leftMs"
         FROM idempotency_key WHERE key = $1`,
        [key],
      )) as { state: string; status: number | null; leftMs: number }[]
    )[0];

  it('the retry on B answers 409 idempotencyKeyInProgress while the dead claim holds, then lands exactly once', async () => {
    const world = await ownerWithCapTable(cluster, a);
    const { org, security, holders } = world;
    const body = {
      member: holders[0].id,
      security: security.id,
      quantity: '250',
      issueDate: '2024-01-15',
    };
    const key = `takeover-${org.id}`;
    const send = (instance: Instance) =>
      world.session
        .on(instance)
        .post(`/v1/organization/${org.id}/shareholding`)
        .set(KEY, key)
        .send(body);

    // Another session holds the log: A's request claims its key, then waits inside its
    // transaction, where the kill finds it.
    const blocker = new Client({ connectionString: cluster.control.database.url });
    await blocker.connect();
    let first: Promise<number | 'no answer'>;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE equity_transaction IN EXCLUSIVE MODE');
      first = send(a).then(
        (r) => r.status,
        () => 'no answer' as const,
      );
      await eventually(async () => (await keyRow(key))?.state === 'running', 30_000, 100);
      await eventually(
        async () =>
          (
            await blocker.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity
               WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).rows[0].n > 0,
        30_000,
        100,
      );
      await a.stop('SIGKILL');
      // The request died with its instance: no answer.
      expect(await first).toBe('no answer');

      const held = await send(b);
      expect(held.status).toBe(409);
      expect(held.body).toEqual({
        error: 'Conflict',
        key: 'idempotencyKeyInProgress',
        message: expect.any(String),
      });
    } finally {
      // A's transaction never commits: its connection ends with the process.
      await blocker.query('COMMIT');
      await blocker.end();
    }
    // Nothing of the killed request was written.
    expect((await logCounts(cluster.db, org.id)).TX_STOCK_ISSUANCE).toBeUndefined();
    expect((await keyRow(key)).state).toBe('running');

    // Until the claim lapses the key stays A's; then B's retry runs the write, once.
    let landed: Response | undefined;
    await eventually(
      async () => {
        const retry = await send(b);
        if (retry.status === 409) {
          expect(retry.body.key).toBe('idempotencyKeyInProgress');
          return false;
        }
        landed = retry;
        return true;
      },
      LEASE_MS * 3,
      500,
    );
    expect(landed!.status).toBe(201);
    expect(landed!.headers['idempotent-replayed']).toBeUndefined();
    expect(landed!.body).toMatchObject({ quantity: '250', member: holders[0].id });

    // Later retries, on either instance, get that answer and write nothing.
    const replayed = await send(b);
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.text).toBe(landed!.text);
    expect(await keyRow(key)).toMatchObject({ state: 'done', status: 201 });
    expect((await logCounts(cluster.db, org.id)).TX_STOCK_ISSUANCE).toBe(1);
    expect((await eventCounts(cluster.db, org.id))['shareholding.created']).toBe(1);
    const shareholdings = await cluster.db.query(
      `SELECT id FROM shareholding WHERE organization_id = $1`,
      [org.id],
    );
    expect(shareholdings).toEqual([{ id: landed!.body.id }]);
    expect(await verifyLedger(cluster.control, org.id)).toMatchObject({ code: 0 });
  }, 120_000);
});
