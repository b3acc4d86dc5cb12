import { LedgerVerifier } from '../../../src/cap-table/ledger/ledger-verifier';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

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

  it('a forward split multiplies every holding, the authorized shares and divides prices; the log replays to the tables', async () => {
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
    expect(after).toMatchObject({ quantity: '2002', status: 'active', pricePerShare: '0.75' });
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
    expect(await shareholding(owner.agent, holdings[0].id)).toMatchObject({
      quantity: '100',
      pricePerShare: '15',
    });
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

  it('refuses a bad ratio, a class with plan reservations, another organization’s class and a Viewer, changing nothing', async () => {
    const { owner, org, security, holdings } = await classWithHolders();
    for (const body of [
      { numerator: '0', denominator: '1' },
      { numerator: '1', denominator: '1' },
      { numerator: 'two', denominator: '1' },
      { numerator: '1', denominator: '100000' },
    ]) {
      const res = await owner.agent.post(split(org.id, security.id)).send(body);
      expect(res.status).toBe(400);
    }
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

  it('the OCF export of a split class is refused (409) rather than exported with quantities split twice', async () => {
    const { owner, org, security } = await classWithHolders();
    await owner.agent.get(`/v1/organization/${org.id}/ocf`).expect(200);
    await owner.agent
      .post(split(org.id, security.id))
      .send({ numerator: '2', denominator: '1' })
      .expect(201);
    await owner.agent.get(`/v1/organization/${org.id}/ocf`).expect(409);
  });
});
