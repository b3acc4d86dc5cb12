import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES, MESSAGE_BODY } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { ownerWithOrg } from '../../support/world';

interface Result {
  status: number;
  body: unknown;
}

const BAD_REQUEST = { error: 'Bad Request', message: expect.any(String) };

describe('POST /v1/query', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const query = (agent: Agent, queries: unknown) => agent.post('/v1/query').send({ queries });

  /** The status and body a single GET answers, as a result of the batch shows it. */
  const single = async (agent: Agent, path: string): Promise<Result> => {
    const res = await agent.get(path);
    return { status: res.status, body: res.text ? res.body : null };
  };

  /**
   * An organization with a cap table: Common Stock, a holder with 700 shares (2024-01-15), a
   * Shareholder-role member with 300 of their own, a 409A valuation and a legend.
   */
  async function capTable() {
    const { owner, org } = await ownerWithOrg(t, 'Query Co');
    const security = await createSecurity(owner.agent, org.id, { authorizedShares: '10000' });
    const holder = await createHolder(owner.agent, org.id, 'Hidden Holder');
    const holding = await issue(owner.agent, org.id, {
      member: holder.id,
      security: security.id,
      quantity: '700',
    });
    const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const own = await issue(owner.agent, org.id, {
      member: shareholder.member.id,
      security: security.id,
      quantity: '300',
    });
    const valuation = await owner.agent
      .put('/v1/valuation')
      .send({
        organization: org.id,
        type: '409A',
        pricePerShare: '0.85',
        effectiveDate: '2024-02-01',
      })
      .expect(200);
    const legend = await owner.agent
      .post(`/v1/organization/${org.id}/legend`)
      .send({ name: 'Rule 144', text: 'These shares have not been registered.' })
      .expect(201);
    return {
      owner,
      org,
      security,
      holder,
      holding,
      shareholder,
      own,
      valuation: valuation.body as { id: string },
      legend: legend.body as { id: string },
    };
  }

  let s: Awaited<ReturnType<typeof capTable>>;
  beforeAll(async () => {
    s = await capTable();
  });

  describe('reads', () => {
    it('answers every read with the status and body of the single GET', async () => {
      const paths: Record<string, string> = {
        organization: `/v1/organization/${s.org.id}`,
        dashboard: `/v1/captable/${s.org.id}/dashboard`,
        'dashboard.past': `/v1/captable/${s.org.id}/dashboard?asOf=2024-01-20`,
        securities: `/v1/organization/${s.org.id}/security`,
        security: `/v1/organization/${s.org.id}/security/${s.security.id}`,
        holdings: `/v1/organization/${s.org.id}/shareholding?limit=1&offset=1`,
        holding: `/v1/shareholding/${s.holding.id}`,
        valuations: `/v1/organization/${s.org.id}/valuation`,
        valuation: `/v1/valuation/${s.valuation.id}`,
        members: `/v1/organization/${s.org.id}/member`,
        blocks: `/v1/organization/${s.org.id}/block`,
        'missing-holding': `/v1/shareholding/${randomUUID()}`,
        'bad-date': `/v1/captable/${s.org.id}/dashboard?asOf=yesterday`,
        'unknown-parameter': `/v1/organization/${s.org.id}/security?sort=name`,
        'no-route': '/v1/no/such/route',
      };
      const res = await query(
        s.owner.agent,
        Object.entries(paths).map(([id, path]) => ({ id, path })),
      ).expect(200);
      expect(Object.keys(res.body)).toEqual(['results']);
      const expected: Record<string, Result> = {};
      for (const [id, path] of Object.entries(paths))
        expected[id] = await single(s.owner.agent, path);
      expect(res.body.results).toEqual(expected);

      // And they are what they should be, not two equal mistakes.
      const results = res.body.results as Record<string, Result>;
      expect(results.dashboard).toMatchObject({
        status: 200,
        body: { issued: '1000', latestValuation: { id: s.valuation.id } },
      });
      expect(results['dashboard.past']).toMatchObject({
        status: 200,
        body: { asOf: '2024-01-20', issued: '1000', latestValuation: null },
      });
      expect(results.holdings.status).toBe(200);
      expect(results.holdings.body).toEqual([expect.objectContaining({ id: s.own.id })]);
      expect(results.holding).toMatchObject({
        status: 200,
        body: { id: s.holding.id, quantity: '700' },
      });
      expect(results['missing-holding']).toEqual({ status: 404, body: ERROR_BODIES[404] });
      expect(results['bad-date']).toEqual({ status: 400, body: BAD_REQUEST });
      expect(results['unknown-parameter'].status).toBe(400);
      expect(results['no-route']).toEqual({ status: 404, body: ERROR_BODIES[404] });
    });

    it('keeps the server whole: real requests after a batch are served as before', async () => {
      const path = `/v1/organization/${s.org.id}/security/${s.security.id}`;
      for (let i = 0; i < 2; i++) {
        await query(s.owner.agent, [{ id: 'a', path }]).expect(200);
        // A write with a body, a read, and a request of another user on a new connection.
        await s.owner.agent
          .post(`/v1/organization/${s.org.id}/legend`)
          .send({ name: `Legend ${i}`, text: 'text' })
          .expect(201);
        await s.owner.agent.get(path).expect(200);
        const other = await loggedInAgent(t);
        await other.agent.get('/v1/organization').expect(200, []);
        await t.http.get(path).expect(401);
      }
    });

    it('runs each read with the caller’s own permissions (a Shareholder)', async () => {
      const agent = s.shareholder.agent;
      const paths: Record<string, string> = {
        organization: `/v1/organization/${s.org.id}`,
        dashboard: `/v1/captable/${s.org.id}/dashboard`,
        securities: `/v1/organization/${s.org.id}/security`,
        holdings: `/v1/organization/${s.org.id}/shareholding`,
        ownHolding: `/v1/shareholding/${s.own.id}`,
        otherHolding: `/v1/shareholding/${s.holding.id}`,
        valuations: `/v1/organization/${s.org.id}/valuation`,
        legends: `/v1/organization/${s.org.id}/legend`,
        config: `/v1/organization/${s.org.id}/shareholding/config`,
      };
      const res = await query(
        agent,
        Object.entries(paths).map(([id, path]) => ({ id, path })),
      ).expect(200);
      const results = res.body.results as Record<string, Result>;
      const forbidden = { status: 403, body: ERROR_BODIES[403] };
      expect(results.otherHolding).toEqual(forbidden);
      expect(results.valuations).toEqual(forbidden);
      expect(results.legends).toEqual(forbidden);
      expect(results.config).toEqual(forbidden);
      for (const id of ['organization', 'dashboard', 'securities', 'holdings', 'ownHolding']) {
        expect([id, results[id].status]).toEqual([id, 200]);
      }
      // Self scope: their own holding only, their own dashboard row only.
      expect((results.holdings.body as { id: string }[]).map((h) => h.id)).toEqual([s.own.id]);
      expect(results.dashboard.body).toMatchObject({
        issued: '1000',
        byHolder: [{ member: s.shareholder.member.id, shares: '300', percent: '30' }],
      });
      expect(JSON.stringify(results)).not.toContain('Hidden Holder');
      // Each exactly what the Shareholder gets asking alone.
      for (const [id, path] of Object.entries(paths)) {
        expect([id, results[id]]).toEqual([id, await single(agent, path)]);
      }
      // The owner's batch of the same paths answers 200 everywhere.
      const full = await query(
        s.owner.agent,
        Object.entries(paths).map(([id, path]) => ({ id, path })),
      ).expect(200);
      for (const r of Object.values(full.body.results as Record<string, Result>)) {
        expect(r.status).toBe(200);
      }
    });

    it('keeps other organizations’ records out: 404 under the caller’s organization, 403 in theirs', async () => {
      const other = await loggedInAgent(t);
      const otherOrg = await createOrg(other.agent, 'Other Co');
      const otherSecurity = await createSecurity(other.agent, otherOrg.id, {
        name: 'Secret Class',
      });
      const otherHolder = await createHolder(other.agent, otherOrg.id, 'Secret Person');
      const otherHolding = await issue(other.agent, otherOrg.id, {
        member: otherHolder.id,
        security: otherSecurity.id,
        quantity: '5',
      });
      const paths: Record<string, string> = {
        classHere: `/v1/organization/${s.org.id}/security/${otherSecurity.id}`,
        memberHere: `/v1/organization/${s.org.id}/member/${otherHolder.id}`,
        holding: `/v1/shareholding/${otherHolding.id}`,
        dashboard: `/v1/captable/${otherOrg.id}/dashboard`,
        organization: `/v1/organization/${otherOrg.id}`,
        mine: `/v1/organization/${s.org.id}/security/${s.security.id}`,
      };
      const res = await query(
        s.owner.agent,
        Object.entries(paths).map(([id, path]) => ({ id, path })),
      ).expect(200);
      const results = res.body.results as Record<string, Result>;
      expect(results.classHere).toEqual({ status: 404, body: ERROR_BODIES[404] });
      expect(results.memberHere).toEqual({ status: 404, body: ERROR_BODIES[404] });
      expect(results.dashboard).toEqual({ status: 403, body: ERROR_BODIES[403] });
      expect(results.organization).toEqual({ status: 403, body: ERROR_BODIES[403] });
      expect([403, 404]).toContain(results.holding.status);
      expect(results.mine.status).toBe(200);
      expect(JSON.stringify(results)).not.toMatch(/Secret/);
      for (const [id, path] of Object.entries(paths)) {
        expect([id, results[id]]).toEqual([id, await single(s.owner.agent, path)]);
      }
    });

    it('keys the results by the caller’s ids, even ids Object.prototype knows', async () => {
      const path = `/v1/organization/${s.org.id}`;
      const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a.b-c_1'];
      const res = await query(
        s.owner.agent,
        ids.map((id) => ({ id, path })),
      ).expect(200);
      const parsed = JSON.parse(res.text) as { results: Record<string, Result> };
      expect(Object.keys(parsed.results).sort()).toEqual([...ids].sort());
      const organization = await single(s.owner.agent, path);
      for (const id of ids) {
        expect(Object.getOwnPropertyDescriptor(parsed.results, id)?.value).toEqual(organization);
      }
    });

    it('takes 20 reads, and refuses a 21st (400)', async () => {
      const path = `/v1/organization/${s.org.id}/security`;
      const twenty = Array.from({ length: 20 }, (_, i) => ({ id: `q${i}`, path }));
      const res = await query(s.owner.agent, twenty).expect(200);
      expect(Object.keys(res.body.results)).toHaveLength(20);
      for (const r of Object.values(res.body.results as Record<string, Result>)) {
        expect(r.status).toBe(200);
      }
      const refused = await query(s.owner.agent, [...twenty, { id: 'q20', path }]).expect(400);
      expect(refused.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('queries'),
      });
    });

    it('runs reads only: a write route’s path is read with GET, and nothing changes', async () => {
      const res = await query(s.owner.agent, [
        { id: 'void', path: `/v1/shareholding/${s.holding.id}` },
        { id: 'transfer', path: `/v1/organization/${s.org.id}/shareholding/transfer` },
        { id: 'logout', path: '/v1/user/logout' },
      ]).expect(200);
      expect(res.body.results.void).toMatchObject({ status: 200, body: { status: 'active' } });
      // No GET route there: the single GET's 404, not a transfer.
      expect(res.body.results.transfer).toEqual({ status: 404, body: ERROR_BODIES[404] });
      expect(res.body.results.logout).toEqual({ status: 404, body: ERROR_BODIES[404] });
      await s.owner.agent.get(`/v1/shareholding/${s.holding.id}`).expect(200);
      expect((await s.owner.agent.get(`/v1/shareholding/${s.holding.id}`)).body.status).toBe(
        'active',
      );
      await s.owner.agent.get('/v1/organization').expect(200);
    });
  });

  describe('validation', () => {
    it('refuses a missing, empty or malformed list (400)', async () => {
      const missing = await s.owner.agent.post('/v1/query').send({}).expect(400);
      expect(missing.body).toEqual({
        error: 'Bad Request',
        key: 'invalidFields',
        message: 'queries is required',
      });
      for (const queries of [[], 'x', {}, [null], ['/v1/organization'], [42]]) {
        const res = await query(s.owner.agent, queries).expect(400);
        expect(res.body).toMatchObject(BAD_REQUEST);
        expect(res.body.message).toContain('queries');
      }
    });

    it('refuses duplicate ids (400)', async () => {
      const path = `/v1/organization/${s.org.id}`;
      const res = await query(s.owner.agent, [
        { id: 'same', path },
        { id: 'other', path },
        { id: 'same', path: `${path}/security` },
      ]).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: 'queries: every id must be unique',
        field: 'queries',
      });
    });

    it('refuses ids and paths that are not strings, or malformed (400)', async () => {
      const path = `/v1/organization/${s.org.id}`;
      const cases: unknown[] = [
        { id: 'a', path: 42 },
        { id: 'a', path: null },
        { id: 'a', path: ['/v1/organization'] },
        { id: 'a', path: { url: path } },
        { id: 1, path },
        { id: '', path },
        { id: 'has space', path },
        { id: 'x'.repeat(101), path },
        { id: 'a', path: `/v1/organization?x=${'y'.repeat(2000)}` },
      ];
      for (const entry of cases) {
        const res = await query(s.owner.agent, [entry]).expect(400);
        expect(res.body).toMatchObject({ error: 'Bad Request', message: expect.any(String) });
      }
      const missing = await query(s.owner.agent, [{ id: 'a' }]).expect(400);
      expect(missing.body).toEqual({
        error: 'Bad Request',
        key: 'invalidFields',
        message: 'queries.0.path is required',
      });
    });

    it('refuses paths outside /v1 however they are spelled (400)', async () => {
      const paths = [
        '/health',
        '/docs-json',
        'v1/organization',
        '/v1',
        '/v2/organization',
        'http://evil.example/v1/organization',
        '//evil.example/v1/organization',
        '/v1/organization #x',
        '/v1/organization#x',
        '/v1/../health',
        '/v1/..',
        '/v1/%2e%2e/health',
        '/v1/.%2E/docs-json',
        '/v1/..\\health',
        `/v1/organization/${s.org.id}/../../../health`,
        '/v1/organization/%2E%2E/%2e%2E/docs-json',
      ];
      for (const path of paths) {
        const res = await query(s.owner.agent, [
          { id: 'fine', path: `/v1/organization/${s.org.id}` },
          { id: 'outside', path },
        ]);
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body).toEqual(BAD_REQUEST);
      }
    });

    it('refuses to run itself, however spelled (400)', async () => {
      const paths = [
        '/v1/query',
        '/v1/query/',
        '/v1/query?x=1',
        '/v1/QUERY',
        '/v1/Query/',
        '/v1/./query',
        '/v1/%2e/query',
        '/v1/organization/../query',
        '/v1/organization/%2e%2e/query?queries=1',
      ];
      for (const path of paths) {
        const res = await query(s.owner.agent, [{ id: 'self', path }]);
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body).toEqual({
          error: 'Bad Request',
          message: 'queries: self reads no path of this kind',
        });
      }
      // A path that merely starts with the name is another path.
      const other = await query(s.owner.agent, [{ id: 'q', path: '/v1/queryx' }]).expect(200);
      expect(other.body.results.q).toEqual({ status: 404, body: ERROR_BODIES[404] });
    });
  });

  describe('authentication and cross-site requests', () => {
    const path = () => `/v1/organization/${s.org.id}`;

    it('401 without a session, or with one that has ended', async () => {
      const res = await t.http
        .post('/v1/query')
        .send({ queries: [{ id: 'a', path: path() }] })
        .expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
      await t.http
        .post('/v1/query')
        .set('Cookie', 'connect.sid=s%3Aforged.signature')
        .send({ queries: [{ id: 'a', path: path() }] })
        .expect(401);
      const user = await loggedInAgent(t);
      await query(user.agent, [{ id: 'a', path: '/v1/organization' }]).expect(200);
      await user.agent.post('/v1/user/logout').expect((r) => expect(r.status).toBeLessThan(300));
      await query(user.agent, [{ id: 'a', path: '/v1/organization' }]).expect(401);
    });

    it('refuses a cross-site Origin or Sec-Fetch-Site (403) and form bodies (415)', async () => {
      const body = { queries: [{ id: 'a', path: path() }] };
      const foreign = await s.owner.agent
        .post('/v1/query')
        .set('Origin', 'https://evil.example')
        .send(body)
        .expect(403);
      expect(foreign.body).toEqual(MESSAGE_BODY);
      expect(JSON.stringify(foreign.body)).not.toContain('Query Co');
      const opaque = await s.owner.agent
        .post('/v1/query')
        .set('Origin', 'null')
        .send(body)
        .expect(403);
      expect(opaque.body).toEqual(MESSAGE_BODY);
      await s.owner.agent
        .post('/v1/query')
        .set('Sec-Fetch-Site', 'cross-site')
        .send(body)
        .expect(403);
      await s.owner.agent
        .post('/v1/query')
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify(body))
        .expect(415);
      await s.owner.agent
        .post('/v1/query')
        .type('form')
        .send('queries[0][id]=a&queries[0][path]=/v1/organization')
        .expect(415);
      // The frontend's own origin is welcome.
      const allowed = await s.owner.agent
        .post('/v1/query')
        .set('Origin', 'http://frontend.test')
        .set('Sec-Fetch-Site', 'same-site')
        .send(body)
        .expect(200);
      expect(allowed.body.results.a).toMatchObject({ status: 200, body: { name: 'Query Co' } });
    });

    it('is a POST only: GET /v1/query is no route', async () => {
      await s.owner.agent.get('/v1/query').expect(404);
    });
  });
});
