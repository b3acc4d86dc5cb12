import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { readZip } from '../../../src/ocf/import/ocf-zip';
import { createTestApp, TestApp } from '../../support/app';
import { binary } from '../../support/binary';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { verifyLedger } from '../../support/ledger-verify';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const MISSING = '00000000-0000-4000-8000-00000000abcd';

const omit = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/**
 * A stock repurchase (OCF TX_STOCK_REPURCHASE): shares of a shareholding bought back by the
 * company at a price, part or all of it. Its definition is its route, its rules, its event and
 * its OCF mapping: nothing else in the service names it.
 */
describe('POST /v1/organization/:organization/shareholding/:shareholding/repurchase', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  /** An organization with 1,000 shares issued to Alice on 2024-01-15. */
  async function capTable() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Buyback Inc.');
    const security = await createSecurity(owner.agent, org.id, { authorizedShares: '100000' });
    const alice = await createHolder(owner.agent, org.id, 'Alice');
    const shares = await issue(owner.agent, org.id, {
      member: alice.id,
      security: security.id,
      quantity: '1000',
      pricePerShare: '0.01',
    });
    return { owner, org, security, alice, shares };
  }

  const repurchase = (agent: Agent, orgId: string, shareholding: string, body: object) =>
    agent.post(`/v1/organization/${orgId}/shareholding/${shareholding}/repurchase`).send(body);

  const issuedOf = async (agent: Agent, orgId: string, security: string) =>
    (await agent.get(`/v1/organization/${orgId}/security/${security}`).expect(200)).body
      .issuedShares as string;

  it('buys back part, then the rest: the answer, the class balance, the status, the log, ledger:verify', async () => {
    const { owner, org, security, alice, shares } = await capTable();
    const part = await repurchase(owner.agent, org.id, shares.id, {
      quantity: '400',
      pricePerShare: '2.5',
      date: '2024-06-01',
      consideration: 'Board consent of 2024-05-30',
    }).expect(201);
    expect(part.body).toEqual({
      id: expect.any(String),
      quantity: '400',
      pricePerShare: '2.5',
      currency: 'USD',
      amount: '1000',
      date: '2024-06-01',
      consideration: 'Board consent of 2024-05-30',
      shareholding: expect.objectContaining({
        id: shares.id,
        member: alice.id,
        quantity: '600',
        status: 'active',
      }),
    });
    expect(await issuedOf(owner.agent, org.id, security.id)).toBe('600');

    const rest = await repurchase(owner.agent, org.id, shares.id, {
      quantity: 600,
      pricePerShare: 3,
    }).expect(201);
    expect(rest.body).toMatchObject({ quantity: '600', amount: '1800' });
    expect(rest.body.shareholding).toMatchObject({ quantity: '0', status: 'repurchased' });
    expect(await issuedOf(owner.agent, org.id, security.id)).toBe('0');
    const listed = await owner.agent
      .get(`/v1/organization/${org.id}/shareholding?status=repurchased`)
      .expect(200);
    expect(listed.body.map((h: { id: string }) => h.id)).toEqual([shares.id]);

    const log = (await db.query(
      `SELECT type, effective_date::text AS date, payload FROM equity_transaction
       WHERE organization_id = $1 AND type = 'TX_STOCK_REPURCHASE' ORDER BY sequence`,
      [org.id],
    )) as { type: string; date: string; payload: Record<string, unknown> }[];
    expect(log).toEqual([
      {
        type: 'TX_STOCK_REPURCHASE',
        date: '2024-06-01',
        payload: {
          shareholdingId: shares.id,
          quantity: '400',
          pricePerShare: '2.5',
          currency: 'USD',
          date: '2024-06-01',
          consideration: 'Board consent of 2024-05-30',
        },
      },
      expect.objectContaining({ type: 'TX_STOCK_REPURCHASE' }),
    ]);
    expect((await verifyLedger(t, org.id)).code).toBe(0);
  });

  it('records shareholding.repurchased: the event list, the activity log, the webhook catalogue; its holder sees it, another Shareholder not', async () => {
    const { owner, org, security } = await capTable();
    const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const stranger = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const theirs = await issue(owner.agent, org.id, {
      member: holder.member.id,
      security: security.id,
      quantity: '500',
    });
    const made = await repurchase(owner.agent, org.id, theirs.id, {
      quantity: '100',
      pricePerShare: '1',
    }).expect(201);
    const listOf = async (agent: Agent) =>
      (
        await agent
          .get(`/v1/organization/${org.id}/event?type=shareholding.repurchased`)
          .expect(200)
      ).body.data as { type: string; data: { object: unknown } }[];
    const seen = await listOf(owner.agent);
    expect(seen).toEqual([
      expect.objectContaining({
        type: 'shareholding.repurchased',
        organization: org.id,
        data: {
          object: { ...made.body.shareholding, repurchase: omit(made.body, 'shareholding') },
          previous_attributes: {},
        },
      }),
    ]);
    expect(await listOf(holder.agent)).toEqual(seen);
    expect(await listOf(stranger.agent)).toEqual([]);
    const description = `shareholding ${made.body.shareholding.certificateNumber}: 100 shares repurchased at 1 USD (100 USD)`;
    const activity = await eventually(async () => {
      const res = await owner.agent
        .get(`/v1/organization/${org.id}/action?type=shareholding.repurchased`)
        .expect(200);
      return res.body.length ? res.body : undefined;
    });
    expect(activity).toEqual([
      expect.objectContaining({ type: 'shareholding.repurchased', description }),
    ]);
    // A webhook may subscribe to it: the type is in the catalogue (an unallocated global address,
    // inactive: nothing is sent).
    await owner.agent
      .post(`/v1/organization/${org.id}/webhook`)
      .send({
        url: 'https://[3ffe::10]/ledger',
        active: false,
        events: ['shareholding.repurchased'],
      })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${org.id}/webhook`)
      .send({ url: 'https://[3ffe::10]/ledger', active: false, events: ['shareholding.bought'] })
      .expect(400);
  });

  it('refuses what its rules refuse and changes nothing: 400, insufficientShares, 409', async () => {
    const { owner, org, security, shares } = await capTable();
    const refused = async (body: object, status: number) => {
      const res = await repurchase(owner.agent, org.id, shares.id, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      return res.body as Record<string, unknown>;
    };
    expect(await refused({ quantity: '1001', pricePerShare: '1' }, 400)).toMatchObject({
      key: 'insufficientShares',
    });
    expect(
      await refused({ quantity: '10', pricePerShare: '1', date: '2023-12-31' }, 400),
    ).toMatchObject({ message: expect.stringContaining('issue date') });
    await refused({ quantity: '10', pricePerShare: '-1' }, 400);
    await refused({ quantity: '0', pricePerShare: '1' }, 400);
    await refused({ quantity: '1.5', pricePerShare: '1' }, 400);
    await refused({ pricePerShare: '1' }, 400);
    await refused({ quantity: '10' }, 400);
    expect(await issuedOf(owner.agent, org.id, security.id)).toBe('1000');
    await owner.agent.delete(`/v1/shareholding/${shares.id}`).expect(200);
    await refused({ quantity: '10', pricePerShare: '1' }, 409);
  });

  it('needs canEditCapTable in the shareholding’s own organization: 401, 403, 404, 400', async () => {
    const { owner, org, shares } = await capTable();
    const body = { quantity: '1', pricePerShare: '1' };
    await repurchase(t.agent(), org.id, shares.id, body).expect(401).expect(errorBody(401));
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await repurchase(viewer.agent, org.id, shares.id, body).expect(403).expect(errorBody(403));
    const other = await capTable();
    // Another organization's shareholding, under this organization or its own.
    await repurchase(owner.agent, org.id, other.shares.id, body).expect(404).expect(errorBody(404));
    await repurchase(owner.agent, other.org.id, other.shares.id, body).expect(403);
    await repurchase(owner.agent, org.id, MISSING, body).expect(404);
    await repurchase(owner.agent, org.id, 'not-a-uuid', body).expect(400);
    const admin = await memberAgent(t, owner.agent, org.id, 'Admin');
    await repurchase(admin.agent, org.id, shares.id, body).expect(201);
  });

  it('replays an Idempotency-Key: one repurchase', async () => {
    const { owner, org, shares } = await capTable();
    const send = () =>
      owner.agent
        .post(`/v1/organization/${org.id}/shareholding/${shares.id}/repurchase`)
        .set('Idempotency-Key', 'buyback-1')
        .send({ quantity: '10', pricePerShare: '1' });
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('goes out to OCF and comes back: the repurchase with its price and balance, the same cap table', async () => {
    const { owner, org, shares } = await capTable();
    await repurchase(owner.agent, org.id, shares.id, {
      quantity: '250',
      pricePerShare: '2',
      date: '2024-03-01',
    }).expect(201);
    const zip = (
      await owner.agent
        .get(`/v1/organization/${org.id}/ocf`)
        .buffer(true)
        .parse(binary as never)
        .expect(200)
    ).body as Buffer;
    const read = await readZip(zip);
    if (!('files' in read)) throw new Error(JSON.stringify(read.problems));
    const txs = JSON.parse(read.files.get('Transactions.ocf.json')!.toString('utf8')) as {
      items: Record<string, unknown>[];
    };
    const item = txs.items.find((i) => i.object_type === 'TX_STOCK_REPURCHASE')!;
    expect(item).toMatchObject({
      date: '2024-03-01',
      price: { amount: '2', currency: 'USD' },
      quantity: '250',
      balance_security_id: expect.any(String),
    });
    const balance = txs.items.find(
      (i) => i.object_type === 'TX_STOCK_ISSUANCE' && i.security_id === item.balance_security_id,
    );
    expect(balance).toMatchObject({ quantity: '750' });

    const target = await createOrg(owner.agent, 'Buyback Again Inc.');
    await owner.agent
      .post(`/v1/organization/${target.id}/ocf`)
      .attach('file', zip, 'package.zip')
      .expect(201);
    const again = (
      await owner.agent.get(`/v1/organization/${target.id}/shareholding?status=all`).expect(200)
    ).body as { quantity: string; status: string }[];
    expect(again.map((h) => [h.quantity, h.status])).toEqual([['750', 'active']]);
    const [{ n }] = (await db.query(
      "SELECT count(*)::int AS n FROM equity_transaction WHERE organization_id = $1 AND type = 'TX_STOCK_REPURCHASE'",
      [target.id],
    )) as { n: number }[];
    expect(n).toBe(1);
    expect((await verifyLedger(t, target.id)).code).toBe(0);
  });
});
