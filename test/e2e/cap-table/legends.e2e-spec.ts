import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { LedgerVerifier } from '../../../src/cap-table/ledger/ledger-verifier';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES, errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import { ownerWithOrg } from '../../support/world';

const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const today = () => new Date().toISOString().slice(0, 10);

const RULE_144 =
  'THE SECURITIES REPRESENTED HEREBY HAVE NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933.';

interface LogRow {
  type: string;
  effective_date: string;
  actor_user_id: string | null;
  payload: Record<string, unknown>;
}

interface EventRow {
  type: string;
  actor_user_id: string | null;
  description: string | null;
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> };
}

interface LegendBody {
  id: string;
  organization: string;
  name: string;
  text: string;
  isDefault: boolean;
  created: string;
}

describe('legends', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get<DataSource>(DataSource);
  });
  afterAll(() => t.close());

  const path = (org: string, id?: string) => `/v1/organization/${org}/legend${id ? `/${id}` : ''}`;

  const log = (org: string): Promise<LogRow[]> =>
    db.query(
      `SELECT type, effective_date::text AS effective_date, actor_user_id, payload
       FROM equity_transaction WHERE organization_id = $1 AND type LIKE 'STOCK_LEGEND%'
       ORDER BY sequence`,
      [org],
    );
  const events = (org: string): Promise<EventRow[]> =>
    db.query(
      `SELECT type, actor_user_id, description, data FROM outbox_event
       WHERE organization_id = $1 AND type LIKE 'legend.%' ORDER BY sequence`,
      [org],
    );

  async function createLegend(
    agent: Agent,
    org: string,
    fields: Record<string, unknown> = {},
  ): Promise<LegendBody> {
    const res = await agent
      .post(path(org))
      .send({ name: 'Rule 144', text: RULE_144, ...fields })
      .expect(201);
    return res.body;
  }

  /** The organization's legends, log and events, to show that a refusal changed nothing. */
  const snapshot = async (agent: Agent, org: string) => ({
    legends: (await agent.get(path(org)).expect(200)).body,
    log: await log(org),
    events: await events(org),
  });

  const expectVerified = async (org: string) => {
    const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org);
    expect(verification.replayError).toBeUndefined();
    expect(verification.differences).toEqual([]);
  };

  /**
   * An issuance naming a legend the organization does not have is refused, naming the legend,
   * and issues nothing. (The shareholding route answers 400 or 404 for it: that status is the
   * shareholding tests' to pin down.)
   */
  async function expectLegendRefused(
    agent: Agent,
    org: string,
    fields: { member: string; security: string; legendIds: string[] },
  ) {
    const res = await agent
      .post(`/v1/organization/${org}/shareholding`)
      .send({ quantity: '1', issueDate: '2024-01-15', ...fields });
    expect([400, 404]).toContain(res.status);
    expect(res.body.message).toContain(fields.legendIds[0]);
    const holdings = await agent.get(`/v1/organization/${org}/shareholding`).expect(200);
    expect(holdings.body).toEqual([]);
  }

  describe('POST /v1/organization/:organization/legend', () => {
    it('creates a legend and answers {id, organization, name, text, isDefault, created}', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const res = await owner.agent
        .post(path(org.id))
        .send({ name: '  Rule 144  ', text: RULE_144 })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        name: 'Rule 144',
        text: RULE_144,
        isDefault: false,
        created: expect.stringMatching(TIMESTAMP),
      });
      expect((await owner.agent.get(path(org.id, res.body.id)).expect(200)).body).toEqual(res.body);
      expect(await log(org.id)).toEqual([
        {
          type: 'STOCK_LEGEND_TEMPLATE_CREATED',
          effective_date: today(),
          actor_user_id: owner.user.id,
          payload: {
            legend: { id: res.body.id, name: 'Rule 144', text: RULE_144, isDefault: false },
          },
        },
      ]);
      await expectVerified(org.id);
    });

    it('keeps the text exactly as given (line breaks, unicode) and takes isDefault', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const text = 'Line one.\n  Line two — «transfer restricted».\n';
      const res = await owner.agent
        .post(path(org.id))
        .send({ name: 'Lock-up', text, isDefault: true })
        .expect(201);
      expect(res.body).toMatchObject({ name: 'Lock-up', text, isDefault: true });
    });

    it('ignores fields the client does not set (id, organization)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const other = await ownerWithOrg(t);
      const res = await owner.agent
        .post(path(org.id))
        .send({ name: 'Rule 144', text: RULE_144, id: UNKNOWN, organization: other.org.id })
        .expect(201);
      expect(res.body.id).not.toBe(UNKNOWN);
      expect(res.body.organization).toBe(org.id);
      expect((await other.owner.agent.get(path(other.org.id)).expect(200)).body).toEqual([]);
    });

    it.each([
      ['name missing', { name: undefined }, 'name', true],
      ['text missing', { text: undefined }, 'text', true],
      ['name blank', { name: '   ' }, 'name', false],
      ['name too long', { name: 'n'.repeat(201) }, 'name', false],
      ['name not text', { name: 144 }, 'name', false],
      ['name null', { name: null }, 'name', false],
      ['text empty', { text: '' }, 'text', false],
      ['text too long', { text: 't'.repeat(20001) }, 'text', false],
      ['text not text', { text: ['a'] }, 'text', false],
      ['isDefault not boolean', { isDefault: 'yes' }, 'isDefault', false],
    ])('refuses %s with 400 and creates nothing', async (_case, change, field, missing) => {
      const { owner, org } = await ownerWithOrg(t);
      const body: Record<string, unknown> = { name: 'Rule 144', text: RULE_144, ...change };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const res = await owner.agent.post(path(org.id)).send(body).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        ...(missing ? { key: 'invalidFields' } : {}),
        message: expect.stringContaining(field),
      });
      expect(await snapshot(owner.agent, org.id)).toEqual({ legends: [], log: [], events: [] });
    });
  });

  describe('GET /v1/organization/:organization/legend', () => {
    it('lists the live legends of the organization, oldest first', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const a = await createLegend(owner.agent, org.id, { name: 'A' });
      const b = await createLegend(owner.agent, org.id, { name: 'B', isDefault: true });
      const gone = await createLegend(owner.agent, org.id, { name: 'Gone' });
      const c = await createLegend(owner.agent, org.id, { name: 'C' });
      await owner.agent.delete(path(org.id, gone.id)).expect(200);
      const other = await ownerWithOrg(t);
      await createLegend(other.owner.agent, other.org.id, { name: 'Theirs' });
      const res = await owner.agent.get(path(org.id)).expect(200);
      expect(res.body).toEqual([a, b, c]);
    });

    it('answers an empty array for an organization without legends', async () => {
      const { owner, org } = await ownerWithOrg(t);
      expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual([]);
    });
  });

  describe('GET /v1/organization/:organization/legend/:legend', () => {
    it('is 404 for an unknown id and 400 for an id that is not a UUID', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await owner.agent.get(path(org.id, UNKNOWN)).expect(404).expect(errorBody(404));
      const bad = await owner.agent.get(path(org.id, 'rule-144')).expect(400);
      expect(bad.body).toEqual({ error: 'Bad Request', message: expect.stringContaining('UUID') });
    });
  });

  describe('PATCH /v1/organization/:organization/legend/:legend', () => {
    it('changes the given fields only, logging the changes', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const renamed = await owner.agent
        .patch(path(org.id, legend.id))
        .send({ name: ' Rule 144 (2024) ' })
        .expect(200);
      expect(renamed.body).toEqual({ ...legend, name: 'Rule 144 (2024)' });
      const retexted = await owner.agent
        .patch(path(org.id, legend.id))
        .send({ text: 'New wording.', isDefault: true })
        .expect(200);
      expect(retexted.body).toEqual({
        ...legend,
        name: 'Rule 144 (2024)',
        text: 'New wording.',
        isDefault: true,
      });
      expect((await owner.agent.get(path(org.id, legend.id)).expect(200)).body).toEqual(
        retexted.body,
      );
      const rows = await log(org.id);
      expect(rows.slice(1)).toEqual([
        {
          type: 'STOCK_LEGEND_TEMPLATE_UPDATED',
          effective_date: today(),
          actor_user_id: owner.user.id,
          payload: { legendId: legend.id, changes: { name: 'Rule 144 (2024)' } },
        },
        {
          type: 'STOCK_LEGEND_TEMPLATE_UPDATED',
          effective_date: today(),
          actor_user_id: owner.user.id,
          payload: { legendId: legend.id, changes: { text: 'New wording.', isDefault: true } },
        },
      ]);
      await expectVerified(org.id);
    });

    it('logs nothing for an empty patch or one that repeats the current values', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const before = await snapshot(owner.agent, org.id);
      expect((await owner.agent.patch(path(org.id, legend.id)).send({}).expect(200)).body).toEqual(
        legend,
      );
      const same = await owner.agent
        .patch(path(org.id, legend.id))
        .send({ name: 'Rule 144', text: RULE_144, isDefault: false })
        .expect(200);
      expect(same.body).toEqual(legend);
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it.each([
      ['name blank', { name: ' ' }, 'name'],
      ['name too long', { name: 'n'.repeat(201) }, 'name'],
      ['name null', { name: null }, 'name'],
      ['text empty', { text: '' }, 'text'],
      ['text null', { text: null }, 'text'],
      ['text too long', { text: 't'.repeat(20001) }, 'text'],
      ['isDefault not boolean', { isDefault: 1 }, 'isDefault'],
      ['isDefault null', { isDefault: null }, 'isDefault'],
    ])('refuses %s with 400 and changes nothing', async (_case, body, field) => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const before = await snapshot(owner.agent, org.id);
      const res = await owner.agent.patch(path(org.id, legend.id)).send(body).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringContaining(field) });
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('is 404 for an unknown or deleted legend', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await owner.agent
        .patch(path(org.id, UNKNOWN))
        .send({ name: 'X' })
        .expect(404)
        .expect(errorBody(404));
      const legend = await createLegend(owner.agent, org.id);
      await owner.agent.delete(path(org.id, legend.id)).expect(200);
      await owner.agent
        .patch(path(org.id, legend.id))
        .send({ name: 'X' })
        .expect(404)
        .expect(errorBody(404));
    });
  });

  describe('isDefault', () => {
    it('puts the default legends on new shareholdings that name none, and only then', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      const plain = await createLegend(owner.agent, org.id, { name: 'Plain' });
      const lockUp = await createLegend(owner.agent, org.id, { name: 'Lock-up', isDefault: true });
      const rule = await createLegend(owner.agent, org.id, { name: 'Rule 144', isDefault: true });
      const grant = (fields: Record<string, unknown> = {}) =>
        issue(owner.agent, org.id, {
          member: holder.id,
          security: security.id,
          quantity: '1',
          ...fields,
        });

      expect((await grant()).legendIds).toEqual([lockUp.id, rule.id]);
      expect((await grant({ legendIds: [plain.id] })).legendIds).toEqual([plain.id]);
      expect((await grant({ legendIds: [] })).legendIds).toEqual([]);

      await owner.agent.patch(path(org.id, lockUp.id)).send({ isDefault: false }).expect(200);
      await owner.agent.patch(path(org.id, plain.id)).send({ isDefault: true }).expect(200);
      expect((await grant()).legendIds).toEqual([plain.id, rule.id]);
      // A deleted default legend is no longer put on anything.
      await owner.agent.patch(path(org.id, plain.id)).send({ isDefault: false }).expect(200);
      const unused = await createLegend(owner.agent, org.id, { name: 'Unused', isDefault: true });
      await owner.agent.delete(path(org.id, unused.id)).expect(200);
      expect((await grant()).legendIds).toEqual([rule.id]);
      await expectVerified(org.id);
    });

    it('is the organization’s own: another organization’s defaults never apply', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const other = await ownerWithOrg(t);
      await createLegend(other.owner.agent, other.org.id, { isDefault: true });
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1',
      });
      expect(holding).toMatchObject({ legendIds: [] });
    });
  });

  describe('DELETE /v1/organization/:organization/legend/:legend', () => {
    it('deletes an unused legend: 200 `{}`, then 404 everywhere; the log keeps its history', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const res = await owner.agent.delete(path(org.id, legend.id)).expect(200);
      expect(res.body).toEqual({});
      await owner.agent.get(path(org.id, legend.id)).expect(404).expect(errorBody(404));
      expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual([]);
      await owner.agent.delete(path(org.id, legend.id)).expect(404).expect(errorBody(404));
      expect(await log(org.id)).toEqual([
        expect.objectContaining({ type: 'STOCK_LEGEND_TEMPLATE_CREATED' }),
        {
          type: 'STOCK_LEGEND_TEMPLATE_DELETED',
          effective_date: today(),
          actor_user_id: owner.user.id,
          payload: { legendId: legend.id },
        },
      ]);
      // A deleted legend cannot go on a new shareholding.
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      await expectLegendRefused(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        legendIds: [legend.id],
      });
      await expectVerified(org.id);
    });

    it('refuses a legend an active shareholding carries (409); once voided it can go', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '10',
        legendIds: [legend.id],
      });
      const before = await snapshot(owner.agent, org.id);
      const res = await owner.agent.delete(path(org.id, legend.id)).expect(409);
      expect(res.body).toEqual({
        error: 'Conflict',
        message: expect.stringContaining(holding.certificateNumber),
      });
      expect(await snapshot(owner.agent, org.id)).toEqual(before);

      await owner.agent.delete(`/v1/shareholding/${holding.id}`).expect(200);
      await owner.agent.delete(path(org.id, legend.id)).expect(200);
      await expectVerified(org.id);
    });

    it('refuses a default legend that was put on a shareholding, and one carried after a transfer', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id, { isDefault: true });
      const security = await createSecurity(owner.agent, org.id);
      const alice = await createHolder(owner.agent, org.id, 'Alice');
      const bob = await createHolder(owner.agent, org.id, 'Bob');
      const holding = await issue(owner.agent, org.id, {
        member: alice.id,
        security: security.id,
        quantity: '10',
      });
      expect(holding).toMatchObject({ legendIds: [legend.id] });
      // All of it to Bob: the source is spent, the new certificate carries the legend.
      await owner.agent
        .post(`/v1/organization/${org.id}/shareholding/transfer`)
        .send({ shareholding: holding.id, toMember: bob.id, quantity: '10', date: '2024-02-01' })
        .expect(201);
      await owner.agent.delete(path(org.id, legend.id)).expect(409);
      await owner.agent.get(path(org.id, legend.id)).expect(200);
    });

    it('does not let a shareholding take the legend while it is being deleted', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, { member: holder.id, security: security.id, quantity: '1' });
      const lockWaits = async () => {
        const [row] = await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return row.n as number;
      };

      // Hold an issuance open just before its commit (it waits for the shareholding version
      // row), with the legend share-locked and its shareholding written but not committed.
      const hold = db.createQueryRunner();
      await hold.connect();
      await hold.startTransaction();
      let issuing: Promise<{ status: number; body: { id: string } }>;
      let deleting: Promise<{ status: number }>;
      try {
        await hold.query(
          `SELECT 1 FROM resource_version
           WHERE organization_id = $1 AND resource = 'shareholding' FOR UPDATE`,
          [org.id],
        );
        issuing = owner.agent
          .post(`/v1/organization/${org.id}/shareholding`)
          .send({
            member: holder.id,
            security: security.id,
            quantity: '5',
            issueDate: '2024-01-15',
            legendIds: [legend.id],
          })
          .then((r) => r);
        await eventually(async () => (await lockWaits()) >= 1);
        // The deletion looks for carriers, then waits for the legend.
        deleting = owner.agent.delete(path(org.id, legend.id)).then((r) => r);
        await eventually(async () => (await lockWaits()) >= 2);
      } finally {
        await hold.commitTransaction();
        await hold.release();
      }
      const [issued, deleted] = await Promise.all([issuing!, deleting!]);
      expect(issued.status).toBe(201);
      expect(deleted.status).toBe(409);
      expect((await owner.agent.get(path(org.id, legend.id)).expect(200)).body).toEqual(legend);
      await owner.agent.get(`/v1/shareholding/${issued.body.id}`).expect(200);
      await expectVerified(org.id);
    });
  });

  describe('access', () => {
    async function fixture() {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      return { owner, org, legend };
    }

    const writes = (org: string, id: string) =>
      [
        (a: Agent) => a.post(path(org)).send({ name: 'New', text: 'New text' }),
        (a: Agent) => a.patch(path(org, id)).send({ name: 'Changed' }),
        (a: Agent) => a.delete(path(org, id)),
      ] as const;
    const reads = (org: string, id: string) =>
      [(a: Agent) => a.get(path(org)), (a: Agent) => a.get(path(org, id))] as const;

    it('401 without a session on every route', async () => {
      const { org, legend } = await fixture();
      const anonymous = t.http as unknown as Agent;
      for (const call of [...reads(org.id, legend.id), ...writes(org.id, legend.id)]) {
        await call(anonymous).expect(401).expect(errorBody(401));
      }
    });

    it('Viewer reads (canViewCapTable) but may not write (canEditCapTable)', async () => {
      const { owner, org, legend } = await fixture();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const before = await snapshot(owner.agent, org.id);
      expect((await viewer.agent.get(path(org.id)).expect(200)).body).toEqual([legend]);
      expect((await viewer.agent.get(path(org.id, legend.id)).expect(200)).body).toEqual(legend);
      for (const call of writes(org.id, legend.id)) {
        const res = await call(viewer.agent).expect(403);
        expect(res.body).toEqual(ERROR_BODIES[403]);
      }
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('a Shareholder (no canViewCapTable) may neither read nor write legends', async () => {
      const { owner, org, legend } = await fixture();
      const roles = await owner.agent.get(`/v1/organization/${org.id}/role`).expect(200);
      const shareholderRole = roles.body.find((r: { name: string }) => r.name === 'Shareholder');
      expect(shareholderRole.permissions).not.toContain('canViewCapTable');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const before = await snapshot(owner.agent, org.id);
      for (const call of [...reads(org.id, legend.id), ...writes(org.id, legend.id)]) {
        const res = await call(shareholder.agent).expect(403);
        expect(res.body).toEqual(ERROR_BODIES[403]);
      }
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('Editor and Admin may write', async () => {
      const { owner, org } = await fixture();
      for (const role of ['Editor', 'Admin']) {
        const who = await memberAgent(t, owner.agent, org.id, role);
        const created = await createLegend(who.agent, org.id, { name: role });
        await who.agent
          .patch(path(org.id, created.id))
          .send({ text: `${role} text` })
          .expect(200);
        await who.agent.delete(path(org.id, created.id)).expect(200);
        const actors = (await log(org.id)).slice(-3).map((r) => r.actor_user_id);
        expect(actors).toEqual([who.user.id, who.user.id, who.user.id]);
      }
    });

    it('another organization’s legend is 404 under one’s own organization and 403 under its own', async () => {
      const a = await fixture();
      const b = await ownerWithOrg(t, 'Other Co');
      const before = await snapshot(a.owner.agent, a.org.id);
      const [, getOne] = reads(b.org.id, a.legend.id);
      const [, patch, remove] = writes(b.org.id, a.legend.id);
      for (const call of [getOne, patch, remove]) {
        const res = await call(b.owner.agent);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(ERROR_BODIES[404]);
      }
      for (const call of [...reads(a.org.id, a.legend.id), ...writes(a.org.id, a.legend.id)]) {
        const res = await call(b.owner.agent);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(ERROR_BODIES[403]);
      }
      expect(await snapshot(a.owner.agent, a.org.id)).toEqual(before);
      expect((await b.owner.agent.get(path(b.org.id)).expect(200)).body).toEqual([]);
      // Nor can B put A's legend on B's shareholding.
      const security = await createSecurity(b.owner.agent, b.org.id);
      const holder = await createHolder(b.owner.agent, b.org.id);
      await expectLegendRefused(b.owner.agent, b.org.id, {
        member: holder.id,
        security: security.id,
        legendIds: [a.legend.id],
      });
    });
  });

  describe('events', () => {
    it('writes legend.created, .updated and .deleted to the outbox and the activity log', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const changed = (
        await owner.agent
          .patch(path(org.id, legend.id))
          .send({ name: 'Rule 144 (2024)', isDefault: true })
          .expect(200)
      ).body;
      await owner.agent.delete(path(org.id, legend.id)).expect(200);
      expect(await events(org.id)).toEqual([
        {
          type: 'legend.created',
          actor_user_id: owner.user.id,
          description: 'legend Rule 144: created',
          data: { object: legend, previous_attributes: {} },
        },
        {
          type: 'legend.updated',
          actor_user_id: owner.user.id,
          description: 'legend Rule 144: changed name, isDefault',
          data: { object: changed, previous_attributes: { name: 'Rule 144', isDefault: false } },
        },
        {
          type: 'legend.deleted',
          actor_user_id: owner.user.id,
          description: 'legend Rule 144 (2024): deleted',
          data: { object: changed, previous_attributes: {} },
        },
      ]);
      const entries = await eventually(async () => {
        const res = await owner.agent
          .get(`/v1/organization/${org.id}/action`)
          .query({ type: 'legend.' })
          .expect(200);
        if (res.body.length < 3) throw new Error(`not yet: ${res.body.length} entries`);
        return res.body as { type: string; description: string; userId: string }[];
      });
      expect(entries.map((e) => [e.type, e.description, e.userId])).toEqual(
        expect.arrayContaining([
          ['legend.created', 'legend Rule 144: created', owner.user.id],
          ['legend.updated', 'legend Rule 144: changed name, isDefault', owner.user.id],
          ['legend.deleted', 'legend Rule 144 (2024): deleted', owner.user.id],
        ]),
      );
      expect(entries).toHaveLength(3);
    });

    it('writes no event for a refused deletion', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legend = await createLegend(owner.agent, org.id);
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1',
        legendIds: [legend.id],
      });
      await owner.agent.delete(path(org.id, legend.id)).expect(409);
      expect((await events(org.id)).map((e) => e.type)).toEqual(['legend.created']);
    });
  });
});
