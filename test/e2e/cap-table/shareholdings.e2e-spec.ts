import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { capTable } from '../../support/world';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = '00000000-0000-4000-8000-00000000abcd';

describe('shareholdings', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  const securityOf = async (agent: TestApp['http'] | any, orgId: string, id: string) =>
    (await agent.get(`/v1/organization/${orgId}/security/${id}`).expect(200)).body;

  const log = async (orgId: string) =>
    (await db.query(
      `SELECT type, effective_date::text AS "effectiveDate", actor_user_id AS actor, payload
       FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
      [orgId],
    )) as {
      type: string;
      effectiveDate: string;
      actor: string;
      payload: Record<string, unknown>;
    }[];

  const events = async (orgId: string) =>
    (await db.query(
      `SELECT type, data FROM outbox_event WHERE organization_id = $1 ORDER BY sequence`,
      [orgId],
    )) as { type: string; data: { object: Record<string, unknown> } }[];

  describe('POST /v1/organization/:organization/shareholding', () => {
    it('issues shares: the shape, a certificate number from the class prefix, the class balance, the log', async () => {
      const { owner, org, security, alice } = await capTable(t);
      const res = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({
          member: alice.id,
          security: security.id,
          quantity: '400000',
          pricePerShare: '0.00010',
          issueDate: '2024-01-15',
          consideration: 'cash',
          // Not the client's to choose: numbers come from the class prefix.
          certificateNumber: 'CS-99',
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        member: alice.id,
        security: security.id,
        quantity: '400000',
        pricePerShare: '0.0001',
        issueDate: '2024-01-15',
        certificateNumber: 'CS-1',
        status: 'active',
        legendIds: [],
        consideration: 'cash',
        created: expect.any(String),
      });
      expect(new Date(res.body.created).toISOString()).toBe(res.body.created);
      expect(await securityOf(owner.agent, org.id, security.id)).toMatchObject({
        authorizedShares: '1000000',
        issuedShares: '400000',
      });
      const second = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '1',
      });
      expect(second.certificateNumber).toBe('CS-2');

      const entries = await log(org.id);
      const issuances = entries.filter((e) => e.type === 'TX_STOCK_ISSUANCE');
      expect(issuances).toHaveLength(2);
      expect(issuances[0]).toMatchObject({
        effectiveDate: '2024-01-15',
        actor: owner.user.id,
        payload: {
          shareholdingId: res.body.id,
          securityId: security.id,
          memberId: alice.id,
          quantity: '400000',
          pricePerShare: '0.0001',
        },
      });

      await owner.agent
        .get(`/v1/shareholding/${res.body.id}`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual(res.body));
    });

    it('keeps every digit of large and precise quantities and prices', async () => {
      const { owner, org, alice } = await capTable(t);
      const big = await createSecurity(owner.agent, org.id, {
        name: 'Big',
        idPrefix: 'B-',
        authorizedShares: '100000000000000000000',
      });
      const res = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({
          member: alice.id,
          security: big.id,
          quantity: '123456789012345678901',
          pricePerShare: '0.0000001234',
          issueDate: '2024-01-15',
        })
        .expect(400);
      expect(res.body.key).toBe('insufficientShares');
      const tooPrecise = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({
          member: alice.id,
          security: big.id,
          quantity: '1',
          pricePerShare: '0.00000012345',
          issueDate: '2024-01-15',
        })
        .expect(400);
      expect(tooPrecise.body.message).toMatch(/10 after/);
      const ok = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .set('Content-Type', 'application/json')
        .send(
          `{"member":"${alice.id}","security":"${big.id}","quantity":"99999999999999999999","pricePerShare":"0.0000001234","issueDate":"2024-01-15"}`,
        )
        .expect(201);
      expect(ok.body.quantity).toBe('99999999999999999999');
      expect(ok.body.pricePerShare).toBe('0.0000001234');
      expect((await securityOf(owner.agent, org.id, big.id)).issuedShares).toBe(
        '99999999999999999999',
      );
      // The largest count the columns hold (28 digits): every share numbered, 1 to 10^28 − 1.
      const most = '9'.repeat(28);
      const huge = await createSecurity(owner.agent, org.id, {
        name: 'Huge',
        idPrefix: 'H-',
        authorizedShares: most,
      });
      const all = await issue(owner.agent, org.id, {
        member: alice.id,
        security: huge.id,
        quantity: most,
      });
      expect(all.quantity).toBe(most);
    });

    it('refuses more shares than the class has unissued (400 insufficientShares) and changes nothing', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '999999',
      });
      const res = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({ member: bob.id, security: security.id, quantity: '2', issueDate: '2024-02-01' })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('1'),
      });
      expect((await securityOf(owner.agent, org.id, security.id)).issuedShares).toBe('999999');
      const list = await owner.agent.get(`/v1/organization/${org.id}/shareholding`).expect(200);
      expect(list.body).toHaveLength(1);
      expect((await log(org.id)).filter((e) => e.type === 'TX_STOCK_ISSUANCE')).toHaveLength(1);
      // Exactly the rest still fits.
      await issue(owner.agent, org.id, { member: bob.id, security: security.id, quantity: '1' });
    });

    it('allows fractional units only in an LLC', async () => {
      const corp = await capTable(t, { type: 'corporation' });
      const refused = await corp.owner.agent
        .post(`/v1/organization/${corp.org.id}/shareholding`)
        .send({
          member: corp.alice.id,
          security: corp.security.id,
          quantity: '10.5',
          issueDate: '2024-01-15',
        })
        .expect(400);
      expect(refused.body.message).toMatch(/whole/);

      const llc = await capTable(t, { type: 'llc' });
      const units = await issue(llc.owner.agent, llc.org.id, {
        member: llc.alice.id,
        security: llc.security.id,
        quantity: '10.125',
      });
      expect(units.quantity).toBe('10.125');
      const moved = await llc.owner.agent
        .post(`/v1/organization/${llc.org.id}/shareholding/transfer`)
        .send({
          shareholding: units.id,
          toMember: llc.bob.id,
          quantity: '0.125',
          date: '2024-03-01',
        })
        .expect(201);
      expect(moved.body.source.quantity).toBe('10');
      expect(moved.body.destination.quantity).toBe('0.125');
      expect((await securityOf(llc.owner.agent, llc.org.id, llc.security.id)).issuedShares).toBe(
        '10.125',
      );
      const config = await llc.owner.agent
        .get(`/v1/organization/${llc.org.id}/shareholding/config`)
        .expect(200);
      expect(config.body).toEqual({
        organization: llc.org.id,
        unitName: 'units',
        fractionalUnitsAllowed: true,
        defaultLegendIds: [],
      });
      const corpConfig = await corp.owner.agent
        .get(`/v1/organization/${corp.org.id}/shareholding/config`)
        .expect(200);
      expect(corpConfig.body).toMatchObject({ unitName: 'shares', fractionalUnitsAllowed: false });
    });

    it.each([
      ['no quantity', { quantity: undefined }, 'invalidFields'],
      ['zero', { quantity: '0' }, undefined],
      ['negative', { quantity: '-5' }, undefined],
      ['not a number', { quantity: '12abc' }, undefined],
      ['exponent', { quantity: '1e6' }, undefined],
      ['a bad date', { issueDate: '2024-02-30' }, undefined],
      ['no date', { issueDate: undefined }, 'invalidFields'],
      ['a bad member id', { member: 'nope' }, undefined],
      ['a negative price', { pricePerShare: '-1' }, undefined],
      ['legends not a list', { legendIds: 'x' }, undefined],
    ])('refuses %s with 400 and issues nothing', async (_name, change, key) => {
      const { owner, org, security, alice } = await capTable(t);
      const body: Record<string, unknown> = {
        member: alice.id,
        security: security.id,
        quantity: '100',
        issueDate: '2024-01-15',
        ...change,
      };
      const res = await owner.agent.post(`/v1/organization/${org.id}/shareholding`).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', message: expect.any(String) });
      if (key) expect(res.body.key).toBe(key);
      expect((await securityOf(owner.agent, org.id, security.id)).issuedShares).toBe('0');
      expect(await log(org.id)).toEqual([expect.objectContaining({ type: 'STOCK_CLASS_CREATED' })]);
    });

    it('refuses a holder, class or legend of another organization (404) and a deleted class', async () => {
      const a = await capTable(t);
      const b = await capTable(t);
      const legendOfB = (
        await b.owner.agent
          .post(`/v1/organization/${b.org.id}/legend`)
          .send({ name: 'Rule 144', text: 'Restricted.' })
          .expect(201)
      ).body;
      const base = {
        member: a.alice.id,
        security: a.security.id,
        quantity: '1',
        issueDate: '2024-01-15',
      };
      for (const body of [
        { ...base, member: b.alice.id },
        { ...base, security: b.security.id },
        { ...base, member: MISSING },
        { ...base, legendIds: [legendOfB.id] },
      ]) {
        const res = await a.owner.agent
          .post(`/v1/organization/${a.org.id}/shareholding`)
          .send(body);
        expect([res.status, res.body.key]).toEqual([404, 'resourceNotFound']);
      }
      // b's owner cannot issue into a's class through b's path either.
      await b.owner.agent
        .post(`/v1/organization/${b.org.id}/shareholding`)
        .send({ ...base, member: b.alice.id })
        .expect(404);
      expect((await securityOf(a.owner.agent, a.org.id, a.security.id)).issuedShares).toBe('0');

      const doomed = await createSecurity(a.owner.agent, a.org.id, {
        name: 'Doomed',
        idPrefix: 'D-',
      });
      await a.owner.agent.delete(`/v1/organization/${a.org.id}/security/${doomed.id}`).expect(200);
      await a.owner.agent
        .post(`/v1/organization/${a.org.id}/shareholding`)
        .send({ ...base, security: doomed.id })
        .expect(404);
    });

    it('puts the default legends on a new certificate unless legends are given', async () => {
      const { owner, org, security, alice } = await capTable(t);
      const legend = (
        await owner.agent
          .post(`/v1/organization/${org.id}/legend`)
          .send({
            name: 'Securities Act',
            text: 'These shares have not been registered.',
            isDefault: true,
          })
          .expect(201)
      ).body;
      const other = (
        await owner.agent
          .post(`/v1/organization/${org.id}/legend`)
          .send({ name: 'Lock-up', text: 'Locked up for 180 days.' })
          .expect(201)
      ).body;
      const config = await owner.agent
        .get(`/v1/organization/${org.id}/shareholding/config`)
        .expect(200);
      expect(config.body.defaultLegendIds).toEqual([legend.id]);
      const byDefault = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: 5,
      });
      expect(byDefault.legendIds).toEqual([legend.id]);
      const chosen = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '5',
        legendIds: [other.id],
      });
      expect(chosen.legendIds).toEqual([other.id]);
      // A legend on an active certificate cannot be deleted.
      await owner.agent.delete(`/v1/organization/${org.id}/legend/${other.id}`).expect(409);
    });

    it('records shareholding.created and the shareholder count in the outbox and the activity log', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const first = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '10',
      });
      await issue(owner.agent, org.id, { member: alice.id, security: security.id, quantity: '10' });
      await issue(owner.agent, org.id, { member: bob.id, security: security.id, quantity: '10' });
      const written = (await events(org.id)).filter((e) =>
        e.type.match(/^(shareholding|billing)\./),
      );
      expect(written.map((e) => e.type)).toEqual([
        'shareholding.created',
        'billing.shareholder_count_changed',
        'shareholding.created',
        'billing.shareholder_count_changed',
        'shareholding.created',
        'billing.shareholder_count_changed',
      ]);
      expect(written[0].data.object).toMatchObject({
        id: first.id,
        quantity: '10',
        status: 'active',
      });
      expect(
        written.filter((e) => e.type.startsWith('billing')).map((e) => e.data.object.shareholders),
      ).toEqual([1, 1, 2]);
      await eventually(async () => {
        const activity = await owner.agent.get(`/v1/organization/${org.id}/action`).expect(200);
        const descriptions = activity.body.map((a: { description: string }) => a.description);
        expect(descriptions).toContain(
          `shareholding ${first.certificateNumber}: 10 shares of Common Stock issued`,
        );
        return true;
      });
    });
  });

  describe('POST /v1/organization/:organization/shareholding/transfer', () => {
    it('moves part of a holding: the balance stays with the source, the destination is a new certificate', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const held = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '1000',
        pricePerShare: '0.5',
      });
      const res = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding/transfer`)
        .send({
          shareholding: held.id,
          toMember: bob.id,
          quantity: '300',
          date: '2024-06-01',
          pricePerShare: '2.25',
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        source: { ...held, quantity: '700' },
        destination: {
          id: expect.stringMatching(UUID),
          organization: org.id,
          member: bob.id,
          security: security.id,
          quantity: '300',
          pricePerShare: '2.25',
          issueDate: '2024-06-01',
          certificateNumber: 'CS-2',
          status: 'active',
          legendIds: [],
          consideration: null,
          created: expect.any(String),
        },
      });
      expect((await securityOf(owner.agent, org.id, security.id)).issuedShares).toBe('1000');
      const entry = (await log(org.id)).find((e) => e.type === 'TX_STOCK_TRANSFER');
      expect(entry).toMatchObject({
        effectiveDate: '2024-06-01',
        payload: { sourceId: held.id, destinationId: res.body.destination.id, quantity: '300' },
      });
      expect(res.body.id).toBe(
        (
          await db.query(
            `SELECT id FROM equity_transaction WHERE type = 'TX_STOCK_TRANSFER' AND organization_id = $1`,
            [org.id],
          )
        )[0].id,
      );

      // The rest, all at once: the source is used up.
      const all = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding/transfer`)
        .send({ shareholding: held.id, toMember: bob.id, quantity: '700', date: '2024-06-02' })
        .expect(201);
      expect(all.body.source).toMatchObject({ quantity: '0', status: 'transferred' });
      expect(all.body.destination.pricePerShare).toBe('0.5');
      // Anything more from it is a state conflict.
      await owner.agent
        .post(`/v1/organization/${org.id}/shareholding/transfer`)
        .send({ shareholding: held.id, toMember: bob.id, quantity: '1', date: '2024-06-03' })
        .expect(409);

      const active = await owner.agent.get(`/v1/organization/${org.id}/shareholding`).expect(200);
      expect(active.body.map((h: { quantity: string }) => h.quantity)).toEqual(['300', '700']);
      const everything = await owner.agent
        .get(`/v1/organization/${org.id}/shareholding?status=all`)
        .expect(200);
      expect(everything.body.map((h: { status: string }) => h.status)).toEqual([
        'transferred',
        'active',
        'active',
      ]);
      const types = (await events(org.id)).map((e) => e.type);
      expect(types.filter((x) => x === 'shareholding.transferred')).toHaveLength(2);
    });

    it('refuses more than the source holds (insufficientShares), a voided source (409), itself and early dates', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const held = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '100',
      });
      const send = (body: Record<string, unknown>) =>
        owner.agent.post(`/v1/organization/${org.id}/shareholding/transfer`).send({
          shareholding: held.id,
          toMember: bob.id,
          quantity: '10',
          date: '2024-06-01',
          ...body,
        });
      const over = await send({ quantity: '101' }).expect(400);
      expect(over.body.key).toBe('insufficientShares');
      await send({ toMember: alice.id }).expect(400);
      await send({ date: '2023-12-31' }).expect(400);
      await send({ quantity: '0' }).expect(400);
      await send({ quantity: '1.5' }).expect(400);
      await send({ shareholding: MISSING }).expect(404);
      await send({ toMember: MISSING }).expect(404);
      const unchanged = await owner.agent.get(`/v1/shareholding/${held.id}`).expect(200);
      expect(unchanged.body.quantity).toBe('100');
      expect((await log(org.id)).some((e) => e.type === 'TX_STOCK_TRANSFER')).toBe(false);

      await owner.agent.delete(`/v1/shareholding/${held.id}`).expect(200);
      await send({}).expect(409);
    });

    it('cannot move shares out of, or into, another organization', async () => {
      const a = await capTable(t);
      const b = await capTable(t);
      const held = await issue(a.owner.agent, a.org.id, {
        member: a.alice.id,
        security: a.security.id,
        quantity: '100',
      });
      // a's holding to b's member, from a's path.
      await a.owner.agent
        .post(`/v1/organization/${a.org.id}/shareholding/transfer`)
        .send({ shareholding: held.id, toMember: b.bob.id, quantity: '10', date: '2024-06-01' })
        .expect(404);
      // b's owner names a's holding under b's path.
      await b.owner.agent
        .post(`/v1/organization/${b.org.id}/shareholding/transfer`)
        .send({ shareholding: held.id, toMember: b.bob.id, quantity: '10', date: '2024-06-01' })
        .expect(404);
      // ... and under a's path (not a member there).
      await b.owner.agent
        .post(`/v1/organization/${a.org.id}/shareholding/transfer`)
        .send({ shareholding: held.id, toMember: a.bob.id, quantity: '10', date: '2024-06-01' })
        .expect(403);
      expect((await a.owner.agent.get(`/v1/shareholding/${held.id}`)).body.quantity).toBe('100');
    });
  });

  describe('GET /v1/organization/:organization/shareholding', () => {
    it('lists oldest first with limit and offset, and refuses bad paging', async () => {
      const { owner, org, security, alice } = await capTable(t);
      const made = [];
      for (let i = 1; i <= 5; i++)
        made.push(
          await issue(owner.agent, org.id, {
            member: alice.id,
            security: security.id,
            quantity: i,
          }),
        );
      const page = await owner.agent
        .get(`/v1/organization/${org.id}/shareholding?limit=2&offset=1`)
        .expect(200);
      expect(page.body).toEqual([made[1], made[2]]);
      const all = await owner.agent.get(`/v1/organization/${org.id}/shareholding`).expect(200);
      expect(all.body).toEqual(made);
      for (const q of ['limit=0', 'limit=1001', 'offset=-1', 'limit=x', 'status=gone', 'sort=id'])
        await owner.agent.get(`/v1/organization/${org.id}/shareholding?${q}`).expect(400);
      await owner.agent.get(`/v1/organization/${org.id}/shareholding?limit=1000`).expect(200);
    });

    it('a Shareholder sees only their own holdings and blocks; a Viewer sees all', async () => {
      const { owner, org, security, alice } = await capTable(t);
      const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const mine = await issue(owner.agent, org.id, {
        member: holder.member.id,
        security: security.id,
        quantity: '50',
      });
      const theirs = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '70',
      });

      const own = await holder.agent.get(`/v1/organization/${org.id}/shareholding`).expect(200);
      expect(own.body).toEqual([mine]);
      const all = await viewer.agent.get(`/v1/organization/${org.id}/shareholding`).expect(200);
      expect(all.body).toEqual([mine, theirs]);

      await holder.agent.get(`/v1/shareholding/${mine.id}`).expect(200);
      await holder.agent.get(`/v1/shareholding/${theirs.id}`).expect(403).expect(errorBody(403));
      await viewer.agent.get(`/v1/shareholding/${theirs.id}`).expect(200);

      const blocks = await holder.agent.get(`/v1/organization/${org.id}/block`).expect(200);
      expect(blocks.body).toEqual([
        {
          security: security.id,
          shareholding: mine.id,
          member: holder.member.id,
          certificateNumber: mine.certificateNumber,
          from: '1',
          to: '50',
        },
      ]);
      const allBlocks = await viewer.agent.get(`/v1/organization/${org.id}/block`).expect(200);
      expect(allBlocks.body.map((b: { from: string; to: string }) => `${b.from}-${b.to}`)).toEqual([
        '1-50',
        '51-120',
      ]);
      // The Shareholder may not see the operating-agreement settings (canViewCapTable) nor edit.
      await holder.agent.get(`/v1/organization/${org.id}/shareholding/config`).expect(403);
      await viewer.agent.get(`/v1/organization/${org.id}/shareholding/config`).expect(200);
    });

    it('answers 401 without a session and 403 to outsiders, for every shareholding route', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const held = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '10',
      });
      const outsider = await loggedInAgent(t);
      const routes: [string, string, Record<string, unknown>?][] = [
        ['get', `/v1/organization/${org.id}/shareholding`],
        ['get', `/v1/organization/${org.id}/shareholding/config`],
        ['get', `/v1/organization/${org.id}/block`],
        [
          'post',
          `/v1/organization/${org.id}/shareholding`,
          { member: alice.id, security: security.id, quantity: '1', issueDate: '2024-01-15' },
        ],
        [
          'post',
          `/v1/organization/${org.id}/shareholding/transfer`,
          { shareholding: held.id, toMember: bob.id, quantity: '1', date: '2024-06-01' },
        ],
        ['get', `/v1/shareholding/${held.id}`],
        ['patch', `/v1/shareholding/${held.id}`, { quantity: '11' }],
        ['put', `/v1/shareholding/${held.id}`, { quantity: '11', issueDate: '2024-01-15' }],
        ['delete', `/v1/shareholding/${held.id}`],
      ];
      for (const [method, path, body] of routes) {
        const anonymous = await (t.http as any)[method](path).send(body);
        expect([method, path, anonymous.status, anonymous.body]).toEqual([
          method,
          path,
          401,
          expect.objectContaining({ key: 'unauthorized' }),
        ]);
        const refused = await (outsider.agent as any)[method](path).send(body);
        expect([method, path, refused.status]).toEqual([method, path, 403]);
      }
      const after = await owner.agent.get(`/v1/shareholding/${held.id}`).expect(200);
      expect(after.body).toEqual(held);
    });

    it('refuses writes to a Viewer (403) and allows them to an Editor', async () => {
      const { owner, org, security, alice } = await capTable(t);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      const body = {
        member: alice.id,
        security: security.id,
        quantity: '5',
        issueDate: '2024-01-15',
      };
      await viewer.agent.post(`/v1/organization/${org.id}/shareholding`).send(body).expect(403);
      const made = await editor.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send(body)
        .expect(201);
      await viewer.agent
        .patch(`/v1/shareholding/${made.body.id}`)
        .send({ quantity: '6' })
        .expect(403);
      await viewer.agent.delete(`/v1/shareholding/${made.body.id}`).expect(403);
      await editor.agent
        .patch(`/v1/shareholding/${made.body.id}`)
        .send({ quantity: '6' })
        .expect(200);
    });
  });

  describe('PATCH, PUT and DELETE /v1/shareholding/:holding', () => {
    it('PATCH corrects fields as a correction transaction, within the class balance', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const held = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '1000',
        pricePerShare: '1',
        consideration: 'cash',
      });
      const res = await owner.agent
        .patch(`/v1/shareholding/${held.id}`)
        .send({ quantity: '1200', issueDate: '2024-01-10' })
        .expect(200);
      expect(res.body).toEqual({ ...held, quantity: '1200', issueDate: '2024-01-10' });
      expect((await securityOf(owner.agent, org.id, security.id)).issuedShares).toBe('1200');
      const too = await owner.agent
        .patch(`/v1/shareholding/${held.id}`)
        .send({ quantity: '1000001' })
        .expect(400);
      expect(too.body.key).toBe('insufficientShares');
      await owner.agent.patch(`/v1/shareholding/${held.id}`).send({ member: bob.id }).expect(400);
      await owner.agent.patch(`/v1/shareholding/${held.id}`).send({ quantity: '0' }).expect(400);
      await owner.agent
        .patch(`/v1/shareholding/${held.id}`)
        .send({ issueDate: 'soon' })
        .expect(400);
      for (const field of ['quantity', 'issueDate', 'legendIds']) {
        const nulled = await owner.agent
          .patch(`/v1/shareholding/${held.id}`)
          .send({ [field]: null })
          .expect(400);
        expect(nulled.body.message).toContain(field);
      }
      // Unchanged fields (the same holder) are accepted and change nothing.
      const same = await owner.agent
        .patch(`/v1/shareholding/${held.id}`)
        .send({ member: alice.id, quantity: '1200' })
        .expect(200);
      expect(same.body).toEqual(res.body);
      const amendments = (await log(org.id)).filter((e) => e.type === 'STOCK_ISSUANCE_AMENDED');
      expect(amendments).toEqual([
        expect.objectContaining({
          actor: owner.user.id,
          payload: {
            shareholdingId: held.id,
            changes: { quantity: '1200', issueDate: '2024-01-10' },
          },
        }),
      ]);
      const updated = (await events(org.id)).filter((e) => e.type === 'shareholding.updated');
      expect(updated).toHaveLength(1);
      expect(updated[0].data).toMatchObject({
        object: { quantity: '1200' },
        previous_attributes: { quantity: '1000', issueDate: '2024-01-15' },
      });
      // Null clears what may be empty.
      const cleared = await owner.agent
        .patch(`/v1/shareholding/${held.id}`)
        .send({ consideration: null, pricePerShare: null })
        .expect(200);
      expect(cleared.body).toEqual({ ...res.body, consideration: null, pricePerShare: null });
    });

    it('PUT replaces the editable fields: omitted optional ones are cleared', async () => {
      const { owner, security, org, alice } = await capTable(t);
      const held = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '10',
        pricePerShare: '3',
        consideration: 'services',
      });
      const res = await owner.agent
        .put(`/v1/shareholding/${held.id}`)
        .send({ quantity: '12', issueDate: '2024-01-16' })
        .expect(200);
      expect(res.body).toEqual({
        ...held,
        quantity: '12',
        issueDate: '2024-01-16',
        pricePerShare: null,
        consideration: null,
      });
      const missing = await owner.agent
        .put(`/v1/shareholding/${held.id}`)
        .send({ quantity: '12' })
        .expect(400);
      expect(missing.body.key).toBe('invalidFields');
    });

    it('DELETE voids: status voided, the shares unissued again, their numbers retired; not twice', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const first = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '100',
      });
      const second = await issue(owner.agent, org.id, {
        member: bob.id,
        security: security.id,
        quantity: '50',
      });
      const res = await owner.agent.delete(`/v1/shareholding/${first.id}`).expect(200);
      expect(res.body).toEqual({ ...first, status: 'voided' });
      const voided = await owner.agent.get(`/v1/shareholding/${first.id}`).expect(200);
      expect(voided.body).toEqual({ ...first, status: 'voided' });
      expect((await securityOf(owner.agent, org.id, security.id)).issuedShares).toBe('50');
      const blocks = await owner.agent.get(`/v1/organization/${org.id}/block`).expect(200);
      expect(blocks.body).toEqual([
        expect.objectContaining({ shareholding: second.id, from: '101', to: '150' }),
      ]);
      const next = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '10',
      });
      const numbered = await owner.agent.get(`/v1/organization/${org.id}/block`).expect(200);
      expect(
        numbered.body.find((b: { shareholding: string }) => b.shareholding === next.id),
      ).toMatchObject({
        from: '151',
        to: '160',
      });

      await owner.agent.delete(`/v1/shareholding/${first.id}`).expect(409);
      await owner.agent.patch(`/v1/shareholding/${first.id}`).send({ quantity: '5' }).expect(409);
      await owner.agent.delete(`/v1/shareholding/${MISSING}`).expect(404);
      await owner.agent.delete(`/v1/shareholding/not-a-uuid`).expect(400);
      const voidedList = await owner.agent
        .get(`/v1/organization/${org.id}/shareholding?status=voided`)
        .expect(200);
      expect(voidedList.body.map((h: { id: string }) => h.id)).toEqual([first.id]);
      const cancellation = (await log(org.id)).find((e) => e.type === 'TX_STOCK_CANCELLATION');
      expect(cancellation).toMatchObject({
        payload: { shareholdingId: first.id, quantity: '100' },
      });
      const types = (await events(org.id)).map((e) => e.type);
      expect(types).toContain('shareholding.voided');
    });

    it('another organization cannot read, change or void a shareholding by id', async () => {
      const a = await capTable(t);
      const b = await capTable(t);
      const held = await issue(a.owner.agent, a.org.id, {
        member: a.alice.id,
        security: a.security.id,
        quantity: '10',
      });
      await b.owner.agent.get(`/v1/shareholding/${held.id}`).expect(403);
      await b.owner.agent.patch(`/v1/shareholding/${held.id}`).send({ quantity: '1' }).expect(403);
      await b.owner.agent
        .put(`/v1/shareholding/${held.id}`)
        .send({ quantity: '1', issueDate: '2024-01-15' })
        .expect(403);
      await b.owner.agent.delete(`/v1/shareholding/${held.id}`).expect(403);
      expect((await a.owner.agent.get(`/v1/shareholding/${held.id}`)).body).toEqual(held);
    });
  });

  describe('the log', () => {
    it('GET /v1/organization/:organization/transaction pages through the log in recording order', async () => {
      const { owner, org, security, alice, bob } = await capTable(t);
      const held = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '10',
      });
      await owner.agent
        .post(`/v1/organization/${org.id}/shareholding/transfer`)
        .send({ shareholding: held.id, toMember: bob.id, quantity: '4', date: '2024-05-01' })
        .expect(201);
      await owner.agent.delete(`/v1/shareholding/${held.id}`).expect(200);
      const all = await owner.agent.get(`/v1/organization/${org.id}/transaction`).expect(200);
      expect(all.body.map((x: { type: string }) => x.type)).toEqual([
        'STOCK_CLASS_CREATED',
        'TX_STOCK_ISSUANCE',
        'TX_STOCK_TRANSFER',
        'TX_STOCK_CANCELLATION',
      ]);
      expect(all.body[2]).toEqual({
        id: expect.stringMatching(UUID),
        sequence: expect.any(Number),
        type: 'TX_STOCK_TRANSFER',
        effectiveDate: '2024-05-01',
        recordedAt: expect.any(String),
        actor: owner.user.id,
        payload: expect.objectContaining({ sourceId: held.id, quantity: '4' }),
      });
      const sequences = all.body.map((x: { sequence: number }) => x.sequence);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      const page = await owner.agent
        .get(`/v1/organization/${org.id}/transaction?limit=2&offset=1`)
        .expect(200);
      expect(page.body).toEqual(all.body.slice(1, 3));
      await owner.agent.get(`/v1/organization/${org.id}/transaction?limit=1001`).expect(400);

      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const other = await capTable(t);
      await viewer.agent.get(`/v1/organization/${org.id}/transaction`).expect(200);
      await holder.agent.get(`/v1/organization/${org.id}/transaction`).expect(403);
      await other.owner.agent.get(`/v1/organization/${org.id}/transaction`).expect(403);
      await t.http.get(`/v1/organization/${org.id}/transaction`).expect(401);
      // The other organization's log holds none of these.
      const theirs = await other.owner.agent
        .get(`/v1/organization/${other.org.id}/transaction`)
        .expect(200);
      expect(theirs.body.map((x: { type: string }) => x.type)).toEqual(['STOCK_CLASS_CREATED']);
    });

    it('cannot be updated or deleted, not even by SQL', async () => {
      const { owner, org, security, alice } = await capTable(t);
      await issue(owner.agent, org.id, { member: alice.id, security: security.id, quantity: '10' });
      await expect(
        db.query(`UPDATE equity_transaction SET payload = '{}' WHERE organization_id = $1`, [
          org.id,
        ]),
      ).rejects.toThrow(/append-only/);
      await expect(
        db.query(`DELETE FROM equity_transaction WHERE organization_id = $1`, [org.id]),
      ).rejects.toThrow(/append-only/);
      expect((await log(org.id)).length).toBe(2);
    });
  });
});
