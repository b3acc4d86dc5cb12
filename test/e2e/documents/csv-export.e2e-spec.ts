import type { Agent, Response } from 'supertest';
import { sum, toDecimal } from '../../../libs/cap-math';
import { SiteAdminService } from '../../../src/organizations';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const HEADER =
  'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber,status,ownershipPercent';
const today = () => new Date().toISOString().slice(0, 10);

/** The body of a CSV answer as text (supertest leaves unknown types unparsed). */
const text = (res: Response) => res.text;
const lines = (csv: string) => csv.split('\r\n').slice(0, -1);

describe('cap table export (CSV and JSON)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function member(agent: Agent, orgId: string, name: string, email?: string) {
    const res = await agent.post(`/v1/organization/${orgId}/member`).send({ name, email });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }

  /**
   * Acme Inc.: Common Stock (CS-) and Series A Preferred (PA-); Alice 600 common, Bob 300 common,
   * a holder named as a formula 100 preferred; a voided holding (not exported).
   */
  async function scriptedCapTable(name = 'Acme Inc.') {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, name);
    const common = await createSecurity(owner.agent, org.id);
    const preferred = await createSecurity(owner.agent, org.id, {
      name: 'Series A Preferred',
      classType: 'preferred',
      idPrefix: 'PA-',
      authorizedShares: '1000',
    });
    const alice = await member(owner.agent, org.id, 'Alice Adams', 'Alice@Example.com');
    const bob = await member(owner.agent, org.id, 'Bob Brown');
    const formula = await member(owner.agent, org.id, '=HYPERLINK("http://x")');
    await issue(owner.agent, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '600',
      pricePerShare: '0.0001',
      issueDate: '2024-01-15',
    });
    const voided = await issue(owner.agent, org.id, {
      member: bob.id,
      security: common.id,
      quantity: '50',
      issueDate: '2024-01-20',
    });
    await owner.agent.delete(`/v1/shareholding/${voided.id}`).expect(200);
    await issue(owner.agent, org.id, {
      member: bob.id,
      security: common.id,
      quantity: '300',
      issueDate: '2024-02-01',
    });
    await issue(owner.agent, org.id, {
      member: formula.id,
      security: preferred.id,
      quantity: '100',
      pricePerShare: '1.50',
      issueDate: '2024-03-01',
    });
    return { owner, org };
  }

  describe('GET /v1/organization/:organization/captable', () => {
    it('streams the active shareholdings as CSV: the exact text, headers and file name', async () => {
      const { owner, org } = await scriptedCapTable();
      const res = await owner.agent.get(`/v1/organization/${org.id}/captable`).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="captable-Acme Inc.-${today()}.csv"`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(text(res)).toBe(
        [
          HEADER,
          'Alice Adams,alice@example.com,Common Stock,common,600,0.0001,2024-01-15,CS-1,active,60.0000',
          // CS-2 was voided: not on the cap table.
          'Bob Brown,,Common Stock,common,300,,2024-02-01,CS-3,active,30.0000',
          // A formula as a name is written as text.
          `"'=HYPERLINK(""http://x"")",,Series A Preferred,preferred,100,1.5,2024-03-01,PA-1,active,10.0000`,
          '',
        ].join('\r\n'),
      );
    });

    it('?format=json answers the same rows as a JSON array', async () => {
      const { owner, org } = await scriptedCapTable();
      const res = await owner.agent
        .get(`/v1/organization/${org.id}/captable?format=json`)
        .expect(200)
        .expect('Content-Type', 'application/json; charset=utf-8');
      expect(res.body).toEqual([
        {
          holderName: 'Alice Adams',
          holderEmail: 'alice@example.com',
          security: 'Common Stock',
          classType: 'common',
          quantity: '600',
          pricePerShare: '0.0001',
          issueDate: '2024-01-15',
          certificateNumber: 'CS-1',
          status: 'active',
          ownershipPercent: '60.0000',
        },
        {
          holderName: 'Bob Brown',
          holderEmail: null,
          security: 'Common Stock',
          classType: 'common',
          quantity: '300',
          pricePerShare: null,
          issueDate: '2024-02-01',
          certificateNumber: 'CS-3',
          status: 'active',
          ownershipPercent: '30.0000',
        },
        {
          // JSON is not a spreadsheet: the name as it is.
          holderName: '=HYPERLINK("http://x")',
          holderEmail: null,
          security: 'Series A Preferred',
          classType: 'preferred',
          quantity: '100',
          pricePerShare: '1.5',
          issueDate: '2024-03-01',
          certificateNumber: 'PA-1',
          status: 'active',
          ownershipPercent: '10.0000',
        },
      ]);
    });

    it('?asOf= replays the log to that date (the voided holding was active then)', async () => {
      const { owner, org } = await scriptedCapTable();
      const res = await owner.agent
        .get(`/v1/organization/${org.id}/captable?asOf=2024-01-31`)
        .expect(200);
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="captable-Acme Inc.-2024-01-31.csv"',
      );
      expect(lines(text(res))).toEqual([
        HEADER,
        'Alice Adams,alice@example.com,Common Stock,common,600,0.0001,2024-01-15,CS-1,active,92.3077',
        'Bob Brown,,Common Stock,common,50,,2024-01-20,CS-2,active,7.6923',
      ]);
      const json = await owner.agent
        .get(`/v1/organization/${org.id}/captable?asOf=2024-02-15&format=json`)
        .expect(200);
      // The voiding is dated the day it was recorded: CS-2 was still active on 2024-02-15.
      expect(json.body.map((r: { certificateNumber: string }) => r.certificateNumber)).toEqual([
        'CS-1',
        'CS-2',
        'CS-3',
      ]);
      const before = await owner.agent
        .get(`/v1/organization/${org.id}/captable?asOf=2023-12-31`)
        .expect(200);
      expect(text(before)).toBe(`${HEADER}\r\n`);
    });

    it('refuses an asOf in the future or not a date, another format, an unknown parameter', async () => {
      const { owner, org } = await scriptedCapTable();
      const base = `/v1/organization/${org.id}/captable`;
      const future = await owner.agent.get(`${base}?asOf=2999-01-01`).expect(400);
      expect(future.body).toEqual({
        error: 'Bad Request',
        message: 'asOf must not be in the future',
      });
      await owner.agent.get(`${base}?asOf=2024-02-30`).expect(400);
      await owner.agent.get(`${base}?format=xml`).expect(400);
      await owner.agent.get(`${base}?status=all`).expect(400);
    });

    it('neutralises every cell a spreadsheet would take for a formula', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent, '@Formula Co');
      const security = await createSecurity(owner.agent, org.id, {
        name: '+Class',
        idPrefix: 'P-',
      });
      const names = ['-1+2', '@SUM(A1)', 'Plain - name', "'=already quoted"];
      for (const [i, name] of names.entries()) {
        const m = await member(owner.agent, org.id, name);
        await issue(owner.agent, org.id, {
          member: m.id,
          security: security.id,
          quantity: String(i + 1),
        });
      }
      const res = await owner.agent.get(`/v1/organization/${org.id}/captable`).expect(200);
      const cells = lines(text(res))
        .slice(1)
        .map((l) => l.split(',').slice(0, 3));
      expect(cells).toEqual([
        ["'-1+2", '', "'+Class"],
        ["'@SUM(A1)", '', "'+Class"],
        ['Plain - name', '', "'+Class"],
        ["'=already quoted", '', "'+Class"],
      ]);
    });

    it('ownershipPercent has 4 decimals and adds up to exactly 100 (largest remainder)', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const security = await createSecurity(owner.agent, org.id);
      for (const [i, quantity] of ['1', '1', '1', '7', '13'].entries()) {
        const m = await member(owner.agent, org.id, `Holder ${i + 1}`);
        await issue(owner.agent, org.id, { member: m.id, security: security.id, quantity });
      }
      const res = await owner.agent
        .get(`/v1/organization/${org.id}/captable?format=json`)
        .expect(200);
      const percents = (res.body as { ownershipPercent: string }[]).map((r) => r.ownershipPercent);
      expect(percents).toEqual(['4.3478', '4.3478', '4.3478', '30.4348', '56.5218']);
      expect(sum(percents.map((p) => toDecimal(p))).toFixed(4)).toBe('100.0000');
    });

    it('an organization without shareholdings exports the header alone', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const res = await owner.agent.get(`/v1/organization/${org.id}/captable`).expect(200);
      expect(text(res)).toBe(`${HEADER}\r\n`);
      const json = await owner.agent
        .get(`/v1/organization/${org.id}/captable?format=json`)
        .expect(200);
      expect(json.body).toEqual([]);
    });

    it('needs a session and canViewCapTable; another organization is 403, a missing one 404', async () => {
      const { owner, org } = await scriptedCapTable();
      const path = `/v1/organization/${org.id}/captable`;
      await t.http.get(path).expect(401).expect(errorBody(401));
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      await shareholder.agent.get(path).expect(403).expect(errorBody(403));
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const seen = await viewer.agent.get(path).expect(200);
      expect(lines(text(seen))).toHaveLength(4);
      const stranger = await loggedInAgent(t);
      await stranger.agent.get(path).expect(403).expect(errorBody(403));
      await owner.agent
        .get('/v1/organization/00000000-0000-4000-8000-00000000abcd/captable')
        .expect(404);
      await owner.agent.get('/v1/organization/not-a-uuid/captable').expect(400);
    });
  });

  describe('GET /v1/site/captable', () => {
    it('site admins get every organization’s cap table in one CSV, led by the organization', async () => {
      const first = await scriptedCapTable('First Co');
      const second = await scriptedCapTable('Second Co');
      const admin = await loggedInAgent(t);
      await admin.agent.get('/v1/site/captable').expect(403).expect(errorBody(403));
      await t.get<SiteAdminService>(SiteAdminService).grant(admin.email);
      const res = await admin.agent.get('/v1/site/captable').expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="captable-all-organizations-${today()}.csv"`,
      );
      const all = lines(text(res));
      expect(all[0]).toBe(`organization,${HEADER}`);
      for (const { org, owner } of [first, second]) {
        const own = lines(text(await owner.agent.get(`/v1/organization/${org.id}/captable`)));
        const rows = all.filter((l) => l.startsWith(`${org.id},`));
        expect(rows).toEqual(own.slice(1).map((l) => `${org.id},${l}`));
      }
      // Organizations one after the other, by id.
      const ids = all.slice(1).map((l) => l.slice(0, 36));
      expect(ids).toEqual([...ids].sort());
    });

    it('an Owner is not a site admin: 403; no session: 401', async () => {
      const { owner } = await scriptedCapTable();
      await owner.agent.get('/v1/site/captable').expect(403).expect(errorBody(403));
      await t.http.get('/v1/site/captable').expect(401).expect(errorBody(401));
    });
  });
});
