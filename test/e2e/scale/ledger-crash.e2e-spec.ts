import type { Agent, Response } from 'supertest';
import { eventually } from '../../support/eventually';
import type { Instance } from '../../support/instances';
import { issue } from '../../support/cap-table';
import { verifyLedger } from '../../support/ledger-verify';
import {
  Cluster,
  eventCounts,
  logCounts,
  ownerWithCapTable,
  startCluster,
  undelivered,
} from './fault-fixtures';

/**
 * The ledger on two instances of the service (child processes) sharing PostgreSQL and Redis:
 * writes racing across both, and an instance killed with SIGKILL in the middle of a burst.
 */
describe('the ledger across instances and through a kill -9', () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    cluster = await startCluster();
    [a, b] = await Promise.all([cluster.start(), cluster.start()]);
  }, 240_000);
  afterAll(() => cluster?.close(), 30_000);

  const transfer = (
    agent: Agent,
    orgId: string,
    source: string,
    toMember: string,
    quantity: string,
  ) =>
    agent
      .post(`/v1/organization/${orgId}/shareholding/transfer`)
      .send({ shareholding: source, toMember, quantity, date: '2024-06-01' });

  const issuance = (
    agent: Agent,
    orgId: string,
    member: string,
    security: string,
    quantity: string,
  ) =>
    agent
      .post(`/v1/organization/${orgId}/shareholding`)
      .send({ member, security, quantity, issueDate: '2024-01-15' });

  /** The sum of the active holdings and the class's issued shares, which must agree. */
  const totals = async (orgId: string, securityId: string) => {
    const [row] = await cluster.db.query(
      `SELECT (SELECT coalesce(sum(quantity), 0)::text FROM shareholding
               WHERE organization_id = $1 AND status = 'active') AS held,
              (SELECT issued_shares::text FROM security WHERE id = $2) AS issued`,
      [orgId, securityId],
    );
    return row as { held: string; issued: string };
  };

  it('100 parallel issuances, transfers and voids on one organization across both instances: every answer is the spec’s, the counts match the acknowledged writes, the ledger verifies', async () => {
    const world = await ownerWithCapTable(cluster, a);
    const { org, security, holders } = world;
    const onA = world.session.on(a);
    const onB = world.session.on(b);
    // Ten holdings of 100 shares, each the source of four transfers of 30 (three fit) and of
    // two voids (one can succeed).
    const seeds: { id: string }[] = [];
    for (let i = 0; i < 10; i++) {
      seeds.push(
        await issue(onA, org.id, {
          member: holders[i % 4].id,
          security: security.id,
          quantity: 100,
        }),
      );
    }
    const work: { kind: 'issue' | 'transfer' | 'void'; send: () => Promise<Response> }[] = [];
    for (let i = 0; i < 100; i++) {
      const agent = i % 2 ? onB : onA;
      const seed = seeds[i % 10];
      if (i < 40) {
        work.push({
          kind: 'transfer',
          send: () => transfer(agent, org.id, seed.id, holders[(i + 1) % 4].id, '30'),
        });
      } else if (i < 60) {
        work.push({ kind: 'void', send: () => agent.delete(`/v1/shareholding/${seed.id}`) });
      } else {
        work.push({
          kind: 'issue',
          send: () => issuance(agent, org.id, holders[i % 4].id, security.id, '10'),
        });
      }
    }
    const answers = await Promise.all(
      work.map(async (w) => ({ kind: w.kind, res: await w.send() })),
    );

    const ok = (kind: string) =>
      answers.filter((x) => x.kind === kind && x.res.status >= 200 && x.res.status < 300);
    const allowed = { issue: [201, 409], transfer: [201, 400, 409], void: [200, 409] };
    const unexpected = answers
      .filter(({ kind, res }) => !allowed[kind].includes(res.status))
      .map(({ kind, res }) => ({ kind, status: res.status, body: res.body }));
    expect(unexpected).toEqual([]);
    for (const { res } of answers) {
      if (res.status === 409) expect(res.body).toMatchObject({ error: 'Conflict' });
      if (res.status === 400) expect(res.body).toMatchObject({ key: 'insufficientShares' });
    }
    // Every issuance fits (the class authorizes ten million): none may be refused but for a
    // concurrent modification.
    expect(ok('issue').length).toBeGreaterThanOrEqual(1);
    // Each seed is voided once, whichever of its two voids comes first.
    expect(ok('void')).toHaveLength(10);
    expect(new Set(ok('void').map((x) => x.res.body.id)).size).toBe(10);

    // What was acknowledged is what the log and the outbox hold, no more.
    const log = await logCounts(cluster.db, org.id);
    expect(log.TX_STOCK_ISSUANCE).toBe(10 + ok('issue').length);
    expect(log.TX_STOCK_TRANSFER ?? 0).toBe(ok('transfer').length);
    const events = await eventCounts(cluster.db, org.id);
    expect(events['shareholding.created']).toBe(10 + ok('issue').length);
    expect(events['shareholding.transferred'] ?? 0).toBe(ok('transfer').length);
    expect(events['shareholding.voided']).toBe(10);
    // A seed gives at most three transfers of 30 out of its 100.
    expect(ok('transfer').length).toBeLessThanOrEqual(30);

    const { held, issued } = await totals(org.id, security.id);
    expect(held).toBe(issued);
    expect(Number(issued)).toBe(
      10 * 100 +
        10 * ok('issue').length -
        // A voided seed's shares leave the count: what was left of it when it was voided.
        ok('void').reduce((n, x) => n + Number(x.res.body.quantity), 0),
    );
    expect(await verifyLedger(cluster.control, org.id)).toMatchObject({ code: 0 });
  }, 120_000);

  it('kill -9 of an instance in a burst of writes: every acknowledged write is there with its events, nothing is half-applied, the other instance delivers them', async () => {
    const world = await ownerWithCapTable(cluster, a);
    const { org, security, holders } = world;
    const onA = world.session.on(a);
    const sources: { id: string }[] = [];
    for (let i = 0; i < 4; i++) {
      sources.push(
        await issue(onA, org.id, { member: holders[i].id, security: security.id, quantity: 1000 }),
      );
    }

    // 200 writes, 16 at a time, on A; A is killed once 25 of them were acknowledged.
    const KILL_AFTER = 25;
    const CONCURRENCY = 16;
    const acknowledged: { kind: 'issue' | 'transfer'; body: { id: string } }[] = [];
    const failed: string[] = [];
    let sent = 0;
    let killed: Promise<unknown> | undefined;
    const write = (i: number) =>
      i % 3 === 0
        ? {
            kind: 'transfer' as const,
            res: transfer(onA, org.id, sources[i % 4].id, holders[(i + 1) % 4].id, '1'),
          }
        : {
            kind: 'issue' as const,
            res: issuance(onA, org.id, holders[i % 4].id, security.id, '5'),
          };
    const worker = async () => {
      while (sent < 200 && !killed) {
        const { kind, res } = write(sent++);
        try {
          const answer = await res;
          if (answer.status >= 500) failed.push(`${answer.status} ${answer.text}`);
          else if (answer.status === 201) acknowledged.push({ kind, body: answer.body });
          else failed.push(`${answer.status} ${answer.text}`);
        } catch {
          // The connection died with the instance: not acknowledged, maybe written.
        }
        if (acknowledged.length >= KILL_AFTER && !killed) killed = a.stop('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(await killed).toBeNull();
    // Nothing answered before the kill was an error.
    expect(failed).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // Every acknowledged write is in the tables and the log, with its event.
    const issued = acknowledged.filter((x) => x.kind === 'issue').map((x) => x.body.id);
    const transferred = acknowledged.filter((x) => x.kind === 'transfer').map((x) => x.body.id);
    const present = await cluster.db.query(
      `SELECT count(*)::int AS n FROM shareholding WHERE id = ANY($1) AND status = 'active'`,
      [issued],
    );
    expect(present[0].n).toBe(issued.length);
    const logged = await cluster.db.query(
      `SELECT count(*)::int AS n FROM equity_transaction WHERE id = ANY($1) AND type = 'TX_STOCK_TRANSFER'`,
      [transferred],
    );
    expect(logged[0].n).toBe(transferred.length);
    const objects = (
      (await cluster.db.query(
        `SELECT data->'object'->>'id' AS id FROM outbox_event WHERE organization_id = $1`,
        [org.id],
      )) as { id: string }[]
    ).map((r) => r.id);
    expect(objects).toEqual(expect.arrayContaining(issued));

    // Nothing half-applied: each log row has its event (written or rolled back together), at
    // most the requests in flight at the kill were written unacknowledged, and the tables are
    // the replay of the log.
    const log = await logCounts(cluster.db, org.id);
    const events = await eventCounts(cluster.db, org.id);
    expect(events['shareholding.created']).toBe(log.TX_STOCK_ISSUANCE);
    expect(events['shareholding.transferred'] ?? 0).toBe(log.TX_STOCK_TRANSFER ?? 0);
    const written = log.TX_STOCK_ISSUANCE - 4 + (log.TX_STOCK_TRANSFER ?? 0);
    expect(written).toBeGreaterThanOrEqual(acknowledged.length);
    expect(written).toBeLessThanOrEqual(acknowledged.length + CONCURRENCY);
    const { held, issued: total } = await totals(org.id, security.id);
    expect(held).toBe(total);
    expect(await verifyLedger(cluster.control, org.id)).toMatchObject({ code: 0 });

    // The session and the cap table carry on on B, and B delivers every event, the killed
    // instance's included (jobs A held are taken back once their Bull lock lapses: QUEUE_LOCK_MS,
    // 10 s here).
    const onB = world.session.on(b);
    await issue(onB, org.id, { member: holders[0].id, security: security.id, quantity: 7 });
    await eventually(async () => (await undelivered(cluster.db, org.id)).length === 0, 60_000, 500);
    expect(await verifyLedger(cluster.control, org.id)).toMatchObject({ code: 0 });
  }, 180_000);
});
