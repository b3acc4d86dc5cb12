import { LedgerVerifier } from '../../../src/cap-table/ledger/ledger-verifier';
import { readZip } from '../../../src/ocf/import/ocf-zip';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { binary } from '../../support/binary';

const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

describe('POST /v1/organization/:organization/security/:security/split', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const split = (org: string, security: string) =>
    `/v1/organization/${org}/security/${security}/split`;

  /** A class with three holders: 1,001, 500 and 3 shares at 1.50. */
  async function classWithHolders(classFields: Record<string, unknown> = {}) {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const security = await createSecurity(owner.agent, org.id, {
      authorizedShares: '10000',
      originalIssuePrice: '1.5',
      ...classFields,
    });
    const holders = [
      await createHolder(owner.agent, org.id, 'Ada'),
      await createHolder(owner.agent, org.id, 'Ben'),
      await createHolder(owner.agent, org.id, 'Cy'),
    ];
    const holdings = [];
    for (const [i, quantity] of ['1001', '500', '3'].entries()) {
      holdings.push(
        await issue(owner.agent, org.id, {
          member: holders[i].id,
          security: security.id,
          quantity,
          pricePerShare: '1.5',
        }),
      );
    }
    return { owner, org, security, holders, holdings };
  }

  const shareholding = async (agent: ReturnType<typeof t.agent>, id: string) =>
    (await agent.get(`/v1/shareholding/${id}`).expect(200)).body as {
      quantity: string;
      status: string;
      pricePerShare: string;
    };

  it('a forward split multiplies every holding and the authorized shares, halves the class issue price, keeps what holders paid; the log replays to the tables', async () => {
    const { owner, org, security, holdings } = await classWithHolders();
    const res = await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1', date: '2024-06-01' })
      .expect(201);
    expect(res.body).toMatchObject({
      numerator: '2',
      denominator: '1',
      date: '2024-06-01',
      security: {
        id: security.id,
        authorizedShares: '20000',
        issuedShares: '3008',
        originalIssuePrice: '0.75',
      },
    });
    expect(
      res.body.shareholdings.map((h: Record<string, string>) => [
        h.id,
        h.quantityBefore,
        h.quantityAfter,
        h.fractionalRemainder,
        h.status,
      ]),
    ).toEqual([
      [holdings[0].id, '1001', '2002', '0', 'active'],
      [holdings[1].id, '500', '1000', '0', 'active'],
      [holdings[2].id, '3', '6', '0', 'active'],
    ]);
    const after = await shareholding(owner.agent, holdings[0].id);
    // The price it was issued at stays: what was paid is history.
    expect(after).toMatchObject({ quantity: '2002', status: 'active', pricePerShare: '1.5' });
    const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org.id);
    expect(verification.differences).toEqual([]);
  });

  it('a reverse split rounds each holding down, reports the fraction, and voids one left with no whole share', async () => {
    const { owner, org, security, holdings } = await classWithHolders();
    const res = await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '1', denominator: '10' })
      .expect(201);
    expect(res.body.security).toMatchObject({ authorizedShares: '1000', issuedShares: '150' });
    expect(
      res.body.shareholdings.map((h: Record<string, string>) => [
        h.quantityAfter,
        h.fractionalRemainder,
        h.status,
      ]),
    ).toEqual([
      ['100', '0.1', 'active'],
      ['50', '0', 'active'],
      ['0', '0.3', 'voided'],
    ]);
    expect(await shareholding(owner.agent, holdings[2].id)).toMatchObject({ status: 'voided' });
    expect(await shareholding(owner.agent, holdings[0].id)).toMatchObject({ quantity: '100' });
    // The class can issue again from its new unissued balance, numbered after the split.
    const more = await issue(owner.agent, org.id, {
      member: (await createHolder(owner.agent, org.id, 'Dee')).id,
      security: security.id,
      quantity: '850',
    });
    expect(more.quantity).toBe('850');
    const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org.id);
    expect(verification.differences).toEqual([]);
  });

  it('the dashboard as of a date before the split shows the shares before it', async () => {
    const { owner, org, security } = await classWithHolders();
    await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '3', denominator: '1', date: '2024-06-01' })
      .expect(201);
    const total = async (asOf?: string) => {
      const res = await owner.agent
        .get(`/v1/captable/${org.id}/dashboard${asOf ? `?asOf=${asOf}` : ''}`)
        .expect(200);
      return JSON.stringify(res.body);
    };
    expect(await total('2024-05-31')).toContain('1504');
    expect(await total()).toContain('4512');
  });

  it('refuses a bad ratio, no session, a class with plan reservations or an outstanding warrant, another organization’s class and a Viewer, changing nothing', async () => {
    const { owner, org, security, holders, holdings } = await classWithHolders();
    for (const body of [
      { numerator: '0', denominator: '1' },
      { numerator: '1', denominator: '1' },
      { numerator: 'two', denominator: '1' },
      { numerator: '1', denominator: '100000' },
      // Before the holdings were issued (2024-01-15).
      { numerator: '2', denominator: '1', date: '2024-01-14' },
    ]) {
      const res = await owner.agent.post(split(org.id, security.id)).send(body);
      expect(res.status).toBe(400);
    }
    // No session.
    await t.http
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1' })
      .expect(401);
    await owner.agent
      .post(split(org.id, UNKNOWN))
      .send({ numerator: '2', denominator: '1' })
      .expect(404);

    const other = await loggedInAgent(t);
    const otherOrg = await createOrg(other.agent, 'Other Co');
    await other.agent
      .post(split(otherOrg.id, security.id))
      .send({ numerator: '2', denominator: '1' })
      .expect(404);
    await other.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1' })
      .expect(403);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await viewer.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1' })
      .expect(403);
    expect(await shareholding(owner.agent, holdings[0].id)).toMatchObject({ quantity: '1001' });

    // An outstanding warrant for shares of the class: refused until it is gone.
    const warrant = await owner.agent
      .post('/v1/holding')
      .send({
        organization: org.id,
        member: holders[0].id,
        type: 'warrant',
        security: security.id,
        quantity: '1000',
        exercisePrice: '2',
        grantDate: '2024-01-01',
      })
      .expect(201);
    const withWarrant = await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1' });
    expect(withWarrant.status).toBe(409);
    expect(withWarrant.body.message).toMatch(/1 outstanding warrant/);
    await owner.agent.delete(`/v1/holding/${warrant.body.id}`).expect(200);

    await owner.agent
      .post(`/v1/organization/${org.id}/plan`)
      .send({ name: 'Plan', security: security.id, sharesReserved: '100' })
      .expect(201);
    const refused = await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1' });
    expect(refused.status).toBe(409);
    expect(await shareholding(owner.agent, holdings[0].id)).toMatchObject({ quantity: '1001' });
  });

  it('the OCF export carries the split (pre-split issuances, TX_STOCK_CLASS_SPLIT, the new authorized shares) and imports back to the same cap table', async () => {
    const { owner, org, security, holders, holdings } = await classWithHolders();
    const transfer = (shareholding: string, toMember: string, quantity: string, date: string) =>
      owner.agent
        .post(`/v1/organization/${org.id}/shareholding/transfer`)
        .send({ shareholding, toMember, quantity, date })
        .expect(201);
    // Before the split in pre-split shares, after it in post-split shares.
    await transfer(holdings[0].id, holders[1].id, '101', '2024-03-01');
    await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1', date: '2024-06-01' })
      .expect(201);
    await transfer(holdings[1].id, holders[2].id, '100', '2024-07-01');

    const zip = (
      await owner.agent
        .get(`/v1/organization/${org.id}/ocf`)
        .buffer(true)
        .parse(binary as never)
        .expect(200)
    ).body as Buffer;
    const read = await readZip(zip);
    if (!('files' in read)) throw new Error(JSON.stringify(read.problems));
    const items = (
      JSON.parse(read.files.get('Transactions.ocf.json')!.toString('utf8')) as {
        items: Record<string, any>[];
      }
    ).items;
    const issued = items
      .filter((i) => i.object_type === 'TX_STOCK_ISSUANCE' && i.date === '2024-01-15')
      .map((i) => i.quantity);
    expect(issued).toEqual(['1001', '500', '3']);
    const splitItem = items.find((i) => i.object_type === 'TX_STOCK_CLASS_SPLIT');
    expect(splitItem).toMatchObject({
      date: '2024-06-01',
      stock_class_id: security.id,
      split_ratio: { numerator: '2', denominator: '1' },
    });
    const after = items.slice(items.indexOf(splitItem!) + 1);
    expect(after[0]).toMatchObject({
      object_type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
      new_shares_authorized: '20000',
    });
    // The partial transfer before the split left 900 (pre-split) with holder 0.
    const balances = items
      .filter((i) => i.object_type === 'TX_STOCK_ISSUANCE' && i.date === '2024-03-01')
      .map((i) => i.quantity)
      .sort();
    expect(balances).toEqual(['101', '900']);

    const target = await createOrg(owner.agent, 'Imported Co');
    const imported = await owner.agent
      .post(`/v1/organization/${target.id}/ocf`)
      .attach('file', zip, 'package.zip');
    expect(imported.status).toBe(201);
    const positions = async (orgId: string) =>
      (
        (await owner.agent.get(`/v1/organization/${orgId}/shareholding?status=active`).expect(200))
          .body as { quantity: string; certificateNumber: string }[]
      )
        .map((h) => h.quantity)
        .sort();
    expect(await positions(target.id)).toEqual(await positions(org.id));
    const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(target.id);
    expect(verification.differences).toEqual([]);
  });
});
