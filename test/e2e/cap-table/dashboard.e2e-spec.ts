import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES, errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { createPlan } from './holdings-fixtures';
import { loggedInAgent } from '../../support/users';
import { sumOfPercents } from '../../support/decimal-sums';

interface HolderRow {
  member: string;
  name: string;
  shares: string;
  percent: string;
  fullyDilutedPercent: string;
}

interface ClassRow {
  security: string;
  name: string;
  authorized: string;
  issued: string;
  percent: string;
}

interface Dashboard {
  asOf: string;
  authorized: string;
  issued: string;
  outstanding: string;
  fullyDiluted: string;
  byHolder: HolderRow[];
  byClass: ClassRow[];
  latestValuation: Record<string, unknown> | null;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Percent strings as the dashboard formats them: at most 4 decimals, trailing zeros trimmed. */
const PERCENT = /^(0|[1-9]\d{0,2})(\.\d{0,3}[1-9])?$/;

/** Holders in the dashboard's order: most shares first, then by member id. */
const ordered = (rows: HolderRow[], shares: (r: HolderRow) => number) =>
  [...rows].sort((a, b) => shares(b) - shares(a) || a.member.localeCompare(b.member));

describe('GET /v1/captable/:organization/dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const dashboard = (agent: Agent, orgId: string, asOf?: string) =>
    agent.get(`/v1/captable/${orgId}/dashboard`).query(asOf === undefined ? {} : { asOf });

  /**
   * The scripted cap table: Common (1,000,000 authorized, seniority 1) and Series A Preferred
   * (500,000, seniority 2, issued first in byClass). Alice 400,000 and Bob 200,000 common on
   * 2024-01-15; Carol 100,000 and Dave 50,000 preferred on 2024-02-01; Alice transfers 100,000
   * common to Carol on 2024-06-01; Dave's holding is voided today.
   */
  async function scriptedCapTable() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Dashboard Co');
    const common = await createSecurity(owner.agent, org.id, {
      name: 'Common Stock',
      idPrefix: 'CS-',
      authorizedShares: '1000000',
      seniority: 1,
    });
    const preferred = await createSecurity(owner.agent, org.id, {
      name: 'Series A Preferred',
      classType: 'preferred',
      idPrefix: 'PA-',
      authorizedShares: '500000',
      seniority: 2,
    });
    const alice = await createHolder(owner.agent, org.id, 'Alice Able');
    const bob = await createHolder(owner.agent, org.id, 'Bob Baker');
    const carol = await createHolder(owner.agent, org.id, 'Carol Cole');
    const dave = await createHolder(owner.agent, org.id, 'Dave Dunn');
    const aliceCommon = await issue(owner.agent, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '400000',
      issueDate: '2024-01-15',
    });
    await issue(owner.agent, org.id, {
      member: bob.id,
      security: common.id,
      quantity: '200000',
      issueDate: '2024-01-15',
    });
    await issue(owner.agent, org.id, {
      member: carol.id,
      security: preferred.id,
      quantity: '100000',
      issueDate: '2024-02-01',
    });
    const daveHolding = await issue(owner.agent, org.id, {
      member: dave.id,
      security: preferred.id,
      quantity: '50000',
      issueDate: '2024-02-01',
    });
    await owner.agent
      .post(`/v1/organization/${org.id}/shareholding/transfer`)
      .send({
        shareholding: aliceCommon.id,
        toMember: carol.id,
        quantity: '100000',
        date: '2024-06-01',
      })
      .expect(201);
    await owner.agent.delete(`/v1/shareholding/${daveHolding.id}`).expect(200);
    return { owner, org, common, preferred, alice, bob, carol, dave };
  }

  describe('figures of a scripted cap table', () => {
    let s: Awaited<ReturnType<typeof scriptedCapTable>>;
    beforeAll(async () => {
      s = await scriptedCapTable();
    });

    it('today: totals as decimal strings, holders and classes exact, percents adding up to 100', async () => {
      const res = await dashboard(s.owner.agent, s.org.id).expect(200);
      const body = res.body as Dashboard;
      // Bob and Carol both hold 200,000: they are ordered by member id.
      const [first, second] = [s.bob.id, s.carol.id].sort();
      const row = (id: string) =>
        ({
          [s.alice.id]: { name: 'Alice Able', shares: '300000', percent: '42.8572' },
          [s.bob.id]: { name: 'Bob Baker', shares: '200000', percent: '28.5714' },
          [s.carol.id]: { name: 'Carol Cole', shares: '200000', percent: '28.5714' },
        })[id];
      expect(body).toEqual({
        asOf: today(),
        authorized: '1500000',
        issued: '700000',
        outstanding: '700000',
        fullyDiluted: '700000',
        byHolder: [s.alice.id, first, second].map((member) => ({
          member,
          ...row(member),
          fullyDilutedPercent: row(member).percent,
        })),
        byClass: [
          {
            security: s.preferred.id,
            name: 'Series A Preferred',
            authorized: '500000',
            issued: '100000',
            percent: '14.2857',
          },
          {
            security: s.common.id,
            name: 'Common Stock',
            authorized: '1000000',
            issued: '600000',
            percent: '85.7143',
          },
        ],
        latestValuation: null,
      });
      // 300000/700000 = 42.857142...%: rounded half-up each row would add to 99.9999; the
      // largest remainder gets the missing unit, so the column is exactly 100.
      expect(sumOfPercents(body.byHolder.map((h) => h.percent))).toBe(1000000n);
      expect(sumOfPercents(body.byHolder.map((h) => h.fullyDilutedPercent))).toBe(1000000n);
      expect(sumOfPercents(body.byClass.map((c) => c.percent))).toBe(1000000n);
      for (const h of body.byHolder) expect(h.percent).toMatch(PERCENT);
    });

    it('agrees with the tables it summarizes (securities and shareholdings)', async () => {
      const securities = await s.owner.agent
        .get(`/v1/organization/${s.org.id}/security`)
        .expect(200);
      const holdings = await s.owner.agent
        .get(`/v1/organization/${s.org.id}/shareholding`)
        .expect(200);
      const body = (await dashboard(s.owner.agent, s.org.id).expect(200)).body as Dashboard;
      for (const c of body.byClass) {
        const security = (
          securities.body as { id: string; authorizedShares: string; issuedShares: string }[]
        ).find((x) => x.id === c.security)!;
        expect({ authorized: c.authorized, issued: c.issued }).toEqual({
          authorized: security.authorizedShares,
          issued: security.issuedShares,
        });
      }
      const byMember = new Map<string, number>();
      for (const h of holdings.body as { member: string; quantity: string; status: string }[]) {
        expect(h.status).toBe('active');
        byMember.set(h.member, (byMember.get(h.member) ?? 0) + Number(h.quantity));
      }
      expect(Object.fromEntries(body.byHolder.map((h) => [h.member, Number(h.shares)]))).toEqual(
        Object.fromEntries(byMember),
      );
    });

    it('?asOf before any issuance: the classes with nothing issued, no holders, zeros', async () => {
      const res = await dashboard(s.owner.agent, s.org.id, '2024-01-14').expect(200);
      expect(res.body).toEqual({
        asOf: '2024-01-14',
        authorized: '1500000',
        issued: '0',
        outstanding: '0',
        fullyDiluted: '0',
        byHolder: [],
        byClass: [
          {
            security: s.preferred.id,
            name: 'Series A Preferred',
            authorized: '500000',
            issued: '0',
            percent: '0',
          },
          {
            security: s.common.id,
            name: 'Common Stock',
            authorized: '1000000',
            issued: '0',
            percent: '0',
          },
        ],
        latestValuation: null,
      });
    });

    it('?asOf on the day of the first issuance counts it (effective on or before the date)', async () => {
      const res = await dashboard(s.owner.agent, s.org.id, '2024-01-15').expect(200);
      const body = res.body as Dashboard;
      expect(body).toMatchObject({ asOf: '2024-01-15', issued: '600000', outstanding: '600000' });
      expect(body.byHolder).toEqual([
        {
          member: s.alice.id,
          name: 'Alice Able',
          shares: '400000',
          percent: '66.6667',
          fullyDilutedPercent: '66.6667',
        },
        {
          member: s.bob.id,
          name: 'Bob Baker',
          shares: '200000',
          percent: '33.3333',
          fullyDilutedPercent: '33.3333',
        },
      ]);
      expect(body.byClass.map((c) => [c.name, c.issued, c.percent])).toEqual([
        ['Series A Preferred', '0', '0'],
        ['Common Stock', '600000', '100'],
      ]);
    });

    it('?asOf between the issuances and the transfer: holdings before the transfer', async () => {
      const res = await dashboard(s.owner.agent, s.org.id, '2024-03-01').expect(200);
      expect(res.body).toEqual({
        asOf: '2024-03-01',
        authorized: '1500000',
        issued: '750000',
        outstanding: '750000',
        fullyDiluted: '750000',
        // 53.3333 + 26.6667 + 13.3333 + 6.6667: the two largest remainders get a unit each.
        byHolder: [
          { member: s.alice.id, name: 'Alice Able', shares: '400000', percent: '53.3333' },
          { member: s.bob.id, name: 'Bob Baker', shares: '200000', percent: '26.6667' },
          { member: s.carol.id, name: 'Carol Cole', shares: '100000', percent: '13.3333' },
          { member: s.dave.id, name: 'Dave Dunn', shares: '50000', percent: '6.6667' },
        ].map((h) => ({ ...h, fullyDilutedPercent: h.percent })),
        byClass: [
          {
            security: s.preferred.id,
            name: 'Series A Preferred',
            authorized: '500000',
            issued: '150000',
            percent: '20',
          },
          {
            security: s.common.id,
            name: 'Common Stock',
            authorized: '1000000',
            issued: '600000',
            percent: '80',
          },
        ],
        latestValuation: null,
      });
    });

    it('?asOf after the transfer and before today’s void: the void is not there yet', async () => {
      const res = await dashboard(s.owner.agent, s.org.id, '2024-12-31').expect(200);
      const body = res.body as Dashboard;
      expect(body).toMatchObject({ issued: '750000', outstanding: '750000' });
      const shares = Object.fromEntries(body.byHolder.map((h) => [h.member, h.shares]));
      expect(shares).toEqual({
        [s.alice.id]: '300000',
        [s.bob.id]: '200000',
        [s.carol.id]: '200000',
        [s.dave.id]: '50000',
      });
      expect(body.byHolder).toEqual(ordered(body.byHolder, (h) => Number(h.shares)));
      expect(body.byHolder.find((h) => h.member === s.alice.id)!.percent).toBe('40');
      // Exactly 100 whatever rows get the two missing units (Bob, Carol and Dave tie on them).
      expect(sumOfPercents(body.byHolder.map((h) => h.percent))).toBe(1000000n);
      for (const h of body.byHolder) {
        expect(Math.abs(Number(h.percent) - (Number(h.shares) / 750000) * 100)).toBeLessThan(
          0.0001,
        );
      }
    });

    it('?asOf today answers exactly what the current tables do', async () => {
      const current = await dashboard(s.owner.agent, s.org.id).expect(200);
      const replayed = await dashboard(s.owner.agent, s.org.id, today()).expect(200);
      expect(replayed.body).toEqual(current.body);
    });

    it('refuses an asOf that is not a calendar date, or in the future (400)', async () => {
      for (const asOf of ['2024-13-01', '2024-02-30', 'yesterday', '', '2024-1-5', '20240105']) {
        const res = await dashboard(s.owner.agent, s.org.id, asOf).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          message: expect.stringContaining('asOf'),
        });
      }
      await s.owner.agent
        .get(`/v1/captable/${s.org.id}/dashboard?asOf=2024-01-01&asOf=2024-02-01`)
        .expect(400);
      const future = await dashboard(s.owner.agent, s.org.id, '2999-01-01').expect(400);
      expect(future.body).toEqual({
        error: 'Bad Request',
        message: 'asOf must not be in the future',
      });
      // Unknown query parameters are refused as on every GET.
      await s.owner.agent.get(`/v1/captable/${s.org.id}/dashboard?as_of=2024-01-01`).expect(400);
    });
  });

  it('authorized shares added on a date count from that date on', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const common = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
    const holder = await createHolder(owner.agent, org.id, 'Holder');
    await issue(owner.agent, org.id, { member: holder.id, security: common.id, quantity: '1000' });
    await owner.agent
      .post(`/v1/organization/${org.id}/security/${common.id}/shares`)
      .send({ quantity: '500', date: '2024-05-01' })
      .expect(201);
    const before = await dashboard(owner.agent, org.id, '2024-04-30').expect(200);
    expect(before.body).toMatchObject({ authorized: '1000', issued: '1000' });
    expect(before.body.byClass[0]).toMatchObject({ authorized: '1000', issued: '1000' });
    const after = await dashboard(owner.agent, org.id, '2024-05-01').expect(200);
    expect(after.body).toMatchObject({ authorized: '1500', issued: '1000' });
    const now = await dashboard(owner.agent, org.id).expect(200);
    expect(now.body).toMatchObject({ authorized: '1500', issued: '1000', outstanding: '1000' });
    expect(now.body.byClass).toEqual([
      {
        security: common.id,
        name: 'Common Stock',
        authorized: '1500',
        issued: '1000',
        percent: '100',
      },
    ]);
  });

  it('today’s dashboard leaves out what is dated after today (future issue, transfer, adjustment)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const common = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
    const a = await createHolder(owner.agent, org.id, 'A');
    const b = await createHolder(owner.agent, org.id, 'B');
    const held = await issue(owner.agent, org.id, {
      member: a.id,
      security: common.id,
      quantity: '100',
    });
    const expected = {
      asOf: today(),
      authorized: '1000',
      issued: '100',
      outstanding: '100',
      fullyDiluted: '100',
      byHolder: [
        { member: a.id, name: 'A', shares: '100', percent: '100', fullyDilutedPercent: '100' },
      ],
      byClass: [
        {
          security: common.id,
          name: 'Common Stock',
          authorized: '1000',
          issued: '100',
          percent: '100',
        },
      ],
      latestValuation: null,
    };
    expect((await dashboard(owner.agent, org.id).expect(200)).body).toEqual(expected);

    await issue(owner.agent, org.id, {
      member: b.id,
      security: common.id,
      quantity: '300',
      issueDate: '2999-01-01',
    });
    await owner.agent
      .post(`/v1/organization/${org.id}/shareholding/transfer`)
      .send({ shareholding: held.id, toMember: b.id, quantity: '40', date: '2999-02-01' })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${org.id}/security/${common.id}/shares`)
      .send({ quantity: '500', date: '2999-03-01' })
      .expect(201);
    // The tables already hold them; the dashboard of today does not count them.
    const security = await owner.agent
      .get(`/v1/organization/${org.id}/security/${common.id}`)
      .expect(200);
    expect(security.body).toMatchObject({ authorizedShares: '1500', issuedShares: '400' });
    const current = await dashboard(owner.agent, org.id).expect(200);
    expect(current.body).toEqual(expected);
    expect((await dashboard(owner.agent, org.id, today()).expect(200)).body).toEqual(expected);
  });

  it('a deleted class leaves today’s dashboard but stays in the past', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const kept = await createSecurity(owner.agent, org.id, { authorizedShares: '100' });
    const gone = await createSecurity(owner.agent, org.id, {
      name: 'Series Seed',
      classType: 'preferred',
      idPrefix: 'SS-',
      authorizedShares: '50',
    });
    await owner.agent.delete(`/v1/organization/${org.id}/security/${gone.id}`).expect(200);
    const now = await dashboard(owner.agent, org.id).expect(200);
    expect(now.body).toMatchObject({ authorized: '100', issued: '0' });
    expect(now.body.byClass.map((c: ClassRow) => c.security)).toEqual([kept.id]);
    const past = await dashboard(owner.agent, org.id, '2024-01-01').expect(200);
    expect(past.body.authorized).toBe('150');
    expect(past.body.byClass.map((c: ClassRow) => c.security).sort()).toEqual(
      [kept.id, gone.id].sort(),
    );
  });

  it('an organization without a cap table answers zeros and empty lists', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const res = await dashboard(owner.agent, org.id).expect(200);
    expect(res.body).toEqual({
      asOf: today(),
      authorized: '0',
      issued: '0',
      outstanding: '0',
      fullyDiluted: '0',
      byHolder: [],
      byClass: [],
      latestValuation: null,
    });
    const past = await dashboard(owner.agent, org.id, '2024-01-01').expect(200);
    expect(past.body).toEqual({ ...res.body, asOf: '2024-01-01' });
  });

  it('latestValuation: null, then the latest valuation effective on or before the date', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await createSecurity(owner.agent, org.id);
    expect((await dashboard(owner.agent, org.id).expect(200)).body.latestValuation).toBeNull();

    const first = await owner.agent
      .put('/v1/valuation')
      .send({
        organization: org.id,
        type: '409A',
        pricePerShare: '1.2500',
        effectiveDate: '2024-04-01',
      })
      .expect(200);
    expect(first.body).toMatchObject({ type: '409A', pricePerShare: '1.25' });
    const current = await dashboard(owner.agent, org.id).expect(200);
    expect(current.body.latestValuation).toEqual(first.body);
    expect(
      (await dashboard(owner.agent, org.id, '2024-03-31').expect(200)).body.latestValuation,
    ).toBeNull();
    expect(
      (await dashboard(owner.agent, org.id, '2024-04-01').expect(200)).body.latestValuation,
    ).toEqual(first.body);

    const second = await owner.agent
      .put('/v1/valuation')
      .send({
        organization: org.id,
        type: '409A',
        pricePerShare: '2.1',
        effectiveDate: '2024-09-01',
        provider: 'Valuers LLP',
      })
      .expect(200);
    expect((await dashboard(owner.agent, org.id).expect(200)).body.latestValuation).toEqual(
      second.body,
    );
    expect(
      (await dashboard(owner.agent, org.id, '2024-08-31').expect(200)).body.latestValuation,
    ).toEqual(first.body);
    // Another organization's valuation never shows here.
    const other = await loggedInAgent(t);
    const otherOrg = await createOrg(other.agent);
    await other.agent
      .put('/v1/valuation')
      .send({
        organization: otherOrg.id,
        type: '409A',
        pricePerShare: '9',
        effectiveDate: '2024-12-01',
      })
      .expect(200);
    expect((await dashboard(owner.agent, org.id).expect(200)).body.latestValuation).toEqual(
      second.body,
    );
  });

  describe('who sees which holders', () => {
    let owner: Agent;
    let orgId: string;
    let holderId: string;
    let shareholder: Awaited<ReturnType<typeof memberAgent>>;
    beforeAll(async () => {
      const o = await loggedInAgent(t);
      owner = o.agent;
      orgId = (await createOrg(owner)).id;
      const common = await createSecurity(owner, orgId, { authorizedShares: '1000' });
      holderId = (await createHolder(owner, orgId, 'Big Holder')).id;
      shareholder = await memberAgent(t, owner, orgId, 'Shareholder');
      await issue(owner, orgId, { member: holderId, security: common.id, quantity: '600' });
      await issue(owner, orgId, {
        member: shareholder.member.id,
        security: common.id,
        quantity: '150',
      });
      await issue(owner, orgId, {
        member: shareholder.member.id,
        security: common.id,
        quantity: '50',
        issueDate: '2024-03-01',
      });
    });

    it('the Shareholder role has canViewOrganization but not canViewCapitalizationOrSelf', async () => {
      const roles = await shareholder.agent.get(`/v1/organization/${orgId}/role`).expect(200);
      const role = (roles.body as { name: string; permissions: string[] }[]).find(
        (r) => r.name === 'Shareholder',
      )!;
      expect(role.permissions).toContain('canViewOrganization');
      expect(role.permissions).not.toContain('canViewCapitalizationOrSelf');
    });

    it('a Shareholder sees the totals and classes, but only their own holder row', async () => {
      const full = (await dashboard(owner, orgId).expect(200)).body as Dashboard;
      const own = (await dashboard(shareholder.agent, orgId).expect(200)).body as Dashboard;
      expect(full.byHolder.map((h) => [h.member, h.shares, h.percent])).toEqual([
        [holderId, '600', '75'],
        [shareholder.member.id, '200', '25'],
      ]);
      const { byHolder: _fullHolders, ...totals } = full;
      const { byHolder, ...ownTotals } = own;
      expect(ownTotals).toEqual(totals);
      expect(ownTotals).toMatchObject({ issued: '800', authorized: '1000' });
      // Their own row with their share of the whole cap table.
      expect(byHolder).toEqual([full.byHolder[1]]);
      expect(byHolder[0]).toMatchObject({
        shares: '200',
        percent: '25',
        fullyDilutedPercent: '25',
      });
      // As of a date too.
      const asOf = (await dashboard(shareholder.agent, orgId, '2024-02-01').expect(200))
        .body as Dashboard;
      expect(asOf.issued).toBe('750');
      expect(asOf.byHolder).toEqual([
        {
          member: shareholder.member.id,
          name: expect.any(String),
          shares: '150',
          percent: '20',
          fullyDilutedPercent: '20',
        },
      ]);
    });

    it('a Shareholder without holdings sees no holder rows at all', async () => {
      const other = await memberAgent(t, owner, orgId, 'Shareholder');
      const res = await dashboard(other.agent, orgId).expect(200);
      expect(res.body).toMatchObject({ issued: '800', byHolder: [] });
    });

    it('a Viewer (canViewCapitalizationOrSelf) sees every holder', async () => {
      const viewer = await memberAgent(t, owner, orgId, 'Viewer');
      const full = await dashboard(owner, orgId).expect(200);
      const res = await dashboard(viewer.agent, orgId).expect(200);
      expect(res.body).toEqual(full.body);
      expect(res.body.byHolder).toHaveLength(2);
    });

    it('a custom role decides it by canViewCapitalizationOrSelf, both ways', async () => {
      const withIt = await owner
        .post(`/v1/organization/${orgId}/role`)
        .send({
          name: 'Cap table reader',
          permissions: ['canViewOrganization', 'canViewCapitalizationOrSelf'],
        })
        .expect(201);
      const without = await owner
        .post(`/v1/organization/${orgId}/role`)
        .send({ name: 'Cap table lite', permissions: ['canViewOrganization', 'canViewCapTable'] })
        .expect(201);
      const reader = await memberAgent(t, owner, orgId, withIt.body.id);
      const lite = await memberAgent(t, owner, orgId, without.body.id);
      expect((await dashboard(reader.agent, orgId).expect(200)).body.byHolder).toHaveLength(2);
      expect((await dashboard(lite.agent, orgId).expect(200)).body.byHolder).toEqual([]);
      // A role without canViewOrganization may not see the dashboard at all.
      const none = await owner
        .post(`/v1/organization/${orgId}/role`)
        .send({ name: 'Nothing', permissions: [] })
        .expect(201);
      const nobody = await memberAgent(t, owner, orgId, none.body.id);
      await dashboard(nobody.agent, orgId).expect(403).expect(errorBody(403));
    });

    it('a removed member loses the dashboard (403)', async () => {
      const viewer = await memberAgent(t, owner, orgId, 'Viewer');
      await dashboard(viewer.agent, orgId).expect(200);
      await owner.delete(`/v1/organization/${orgId}/member/${viewer.member.id}`).expect(200);
      await dashboard(viewer.agent, orgId).expect(403).expect(errorBody(403));
    });
  });

  describe('access', () => {
    it('401 without a session', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const res = await t.http.get(`/v1/captable/${org.id}/dashboard`).expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
      await t.http.get(`/v1/captable/${org.id}/dashboard?asOf=2024-01-01`).expect(401);
    });

    it('another organization’s dashboard is refused (403), an unknown one is 404, a bad id 400', async () => {
      const a = await loggedInAgent(t);
      const b = await loggedInAgent(t);
      const orgA = await createOrg(a.agent);
      const orgB = await createOrg(b.agent);
      const security = await createSecurity(b.agent, orgB.id);
      const holder = await createHolder(b.agent, orgB.id, 'Secret Holder');
      await issue(b.agent, orgB.id, { member: holder.id, security: security.id, quantity: '10' });
      await dashboard(a.agent, orgA.id).expect(200);
      const refused = await dashboard(a.agent, orgB.id).expect(403);
      expect(refused.body).toEqual(ERROR_BODIES[403]);
      expect(JSON.stringify(refused.body)).not.toContain('Secret Holder');
      await dashboard(a.agent, orgB.id, '2024-06-01').expect(403);
      await dashboard(a.agent, randomUUID()).expect(404).expect(errorBody(404));
      await a.agent.get('/v1/captable/not-a-uuid/dashboard').expect(400);
    });
  });

  describe('an LLC with fractional units', () => {
    it('shows fractional quantities and totals exactly', async () => {
      const owner = await loggedInAgent(t);
      const created = await owner.agent
        .post('/v1/organization')
        .send({ name: 'Units LLC', type: 'llc' })
        .expect(201);
      const orgId = created.body.id as string;
      const config = await owner.agent
        .get(`/v1/organization/${orgId}/shareholding/config`)
        .expect(200);
      expect(config.body).toMatchObject({ unitName: 'units', fractionalUnitsAllowed: true });
      const units = await createSecurity(owner.agent, orgId, {
        name: 'Common Units',
        idPrefix: 'CU-',
        authorizedShares: '1000.5',
      });
      const alice = await createHolder(owner.agent, orgId, 'Alice');
      const bob = await createHolder(owner.agent, orgId, 'Bob');
      const carol = await createHolder(owner.agent, orgId, 'Carol');
      await issue(owner.agent, orgId, { member: alice.id, security: units.id, quantity: '0.1' });
      const bobs = await issue(owner.agent, orgId, {
        member: bob.id,
        security: units.id,
        quantity: '0.2',
      });
      await owner.agent
        .post(`/v1/organization/${orgId}/shareholding/transfer`)
        .send({ shareholding: bobs.id, toMember: carol.id, quantity: '0.05', date: '2024-06-01' })
        .expect(201);

      const res = await dashboard(owner.agent, orgId).expect(200);
      expect(res.body).toEqual({
        asOf: today(),
        authorized: '1000.5',
        // 0.1 + 0.2 in binary floating point would be 0.30000000000000004.
        issued: '0.3',
        outstanding: '0.3',
        fullyDiluted: '0.3',
        byHolder: [
          { member: bob.id, name: 'Bob', shares: '0.15', percent: '50' },
          { member: alice.id, name: 'Alice', shares: '0.1', percent: '33.3333' },
          { member: carol.id, name: 'Carol', shares: '0.05', percent: '16.6667' },
        ].map((h) => ({ ...h, fullyDilutedPercent: h.percent })),
        byClass: [
          {
            security: units.id,
            name: 'Common Units',
            authorized: '1000.5',
            issued: '0.3',
            percent: '100',
          },
        ],
        latestValuation: null,
      });
      const before = await dashboard(owner.agent, orgId, '2024-05-31').expect(200);
      expect(before.body.byHolder.map((h: HolderRow) => [h.name, h.shares, h.percent])).toEqual([
        ['Bob', '0.2', '66.6667'],
        ['Alice', '0.1', '33.3333'],
      ]);
      expect(before.body.issued).toBe('0.3');
    });

    it('a corporation refuses fractional shares, so its dashboard stays whole', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({
          member: holder.id,
          security: security.id,
          quantity: '0.5',
          issueDate: '2024-01-15',
        })
        .expect(400);
      expect((await dashboard(owner.agent, org.id).expect(200)).body.issued).toBe('0');
    });
  });

  it('fully diluted counts outstanding grants, the pools’ available shares and SAFEs as converted at the latest valuation', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Diluted Inc.');
    const common = await createSecurity(owner.agent, org.id, { authorizedShares: '10000000' });
    const founder = await createHolder(owner.agent, org.id, 'Founder');
    const employee = await createHolder(owner.agent, org.id, 'Employee');
    const investor = await createHolder(owner.agent, org.id, 'Investor');
    await issue(owner.agent, org.id, {
      member: founder.id,
      security: common.id,
      quantity: '8000000',
    });
    const plan = await createPlan(owner.agent, org.id, common.id, {
      sharesReserved: '1000000',
      pools: [{ name: 'Employees', sharesReserved: '1000000' }],
    });
    await owner.agent
      .post('/v1/holding')
      .send({
        organization: org.id,
        member: employee.id,
        type: 'option_iso',
        plan: plan.id,
        pool: plan.pools[0].id,
        quantity: '400000',
        exercisePrice: '0.5',
        grantDate: '2024-02-01',
      })
      .expect(201);
    await owner.agent
      .post('/v1/holding')
      .send({
        organization: org.id,
        member: investor.id,
        type: 'safe',
        amount: '500000',
        currency: 'USD',
        safeType: 'post_money',
        valuationCap: '10000000',
        issueDate: '2024-03-01',
      })
      .expect(201);

    // Without a valuation nothing converts: 8,000,000 issued + 400,000 options + 600,000 pool.
    const before = (await dashboard(owner.agent, org.id).expect(200)).body as Dashboard;
    expect(before).toMatchObject({
      issued: '8000000',
      outstanding: '8000000',
      fullyDiluted: '9000000',
    });
    expect(before.byHolder).toEqual([
      {
        member: founder.id,
        name: 'Founder',
        shares: '8000000',
        percent: '100',
        fullyDilutedPercent: '88.8889',
      },
      {
        member: employee.id,
        name: 'Employee',
        shares: '0',
        percent: '0',
        fullyDilutedPercent: '4.4444',
      },
    ]);

    // At $2 a share the $10M post-money cap wins: the SAFE owns 5% of a Company Capitalization of
    // 9,000,000 / 0.95 = 9,473,684.2..., 473,684 whole shares.
    await owner.agent
      .put('/v1/valuation')
      .send({ organization: org.id, type: '409A', pricePerShare: '2', effectiveDate: '2024-04-01' })
      .expect(200);
    const after = (await dashboard(owner.agent, org.id).expect(200)).body as Dashboard;
    expect(after.fullyDiluted).toBe('9473684');
    expect(after.byHolder).toEqual([
      {
        member: founder.id,
        name: 'Founder',
        shares: '8000000',
        percent: '100',
        fullyDilutedPercent: '84.4445',
      },
      {
        member: investor.id,
        name: 'Investor',
        shares: '0',
        percent: '0',
        fullyDilutedPercent: '5',
      },
      {
        member: employee.id,
        name: 'Employee',
        shares: '0',
        percent: '0',
        fullyDilutedPercent: '4.2222',
      },
    ]);
    // The same from the replay of the log, and before the SAFE and the valuation existed.
    const replayed = (await dashboard(owner.agent, org.id, today()).expect(200)).body as Dashboard;
    expect(replayed).toEqual(after);
    const february = (await dashboard(owner.agent, org.id, '2024-02-15').expect(200))
      .body as Dashboard;
    expect(february).toMatchObject({ fullyDiluted: '9000000', latestValuation: null });
    expect(february.byHolder.map((h) => h.member)).toEqual([founder.id, employee.id]);
  });
});
