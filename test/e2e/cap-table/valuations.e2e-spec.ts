import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { EquityTransaction } from '../../../src/cap-table/ledger/equity-transaction.entity';
import { LedgerVerifier } from '../../../src/cap-table/ledger/ledger-verifier';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { joinByInvitation, memberAgent, OrgFixture } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { pdf } from '../documents/upload-fixtures';
import { ownerWithOrg } from '../../support/world';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

interface ValuationBody {
  id: string;
  organization: string;
  type: string;
  pricePerShare: string;
  security: string | null;
  effectiveDate: string;
  provider: string | null;
  reportFile: string | null;
  created: string;
  updated: string;
}

describe('valuations', () => {
  let t: TestApp;
  let ds: DataSource;
  const storage = tempStorage();
  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_DIR: storage.dir } });
    ds = t.get<DataSource>(DataSource);
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  /** A report uploaded to the organization (a valuation's reportFile must be one of its files). */
  async function reportOf(agent: Agent, orgId: string): Promise<string> {
    const res = await agent
      .post(`/v1/organization/${orgId}/file`)
      .attach('file', pdf('409A report'), 'report.pdf');
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  }

  const put = (agent: Agent, body: Record<string, unknown>) =>
    agent.put('/v1/valuation').send(body);

  async function record(agent: Agent, org: OrgFixture, fields: Record<string, unknown> = {}) {
    const res = await put(agent, {
      organization: org.id,
      type: '409A',
      pricePerShare: '1.25',
      effectiveDate: '2024-01-01',
      ...fields,
    });
    if (res.status !== 200) throw new Error(`valuation: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as ValuationBody;
  }

  const list = async (agent: Agent, orgId: string) =>
    (await agent.get(`/v1/organization/${orgId}/valuation`).expect(200)).body as ValuationBody[];

  const logRows = (organizationId: string) =>
    ds.getRepository(EquityTransaction).find({
      where: { organizationId },
      order: { sequence: 'ASC' },
    });

  const outbox = (organizationId: string, type?: string) =>
    ds.getRepository(OutboxEvent).find({
      where: { organizationId, ...(type ? { type } : {}) },
      order: { sequence: 'ASC' },
    });

  /** What must stay the same when a request is refused: the list, the log and the outbox. */
  async function snapshot(agent: Agent, orgId: string) {
    return {
      valuations: await list(agent, orgId),
      log: (await logRows(orgId)).length,
      events: (await outbox(orgId)).filter((e) => e.type.startsWith('valuation.')).length,
    };
  }

  describe('PUT /v1/valuation (create)', () => {
    it('records a valuation: 200 with every field, decimals canonical, dates YYYY-MM-DD', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const reportFile = await reportOf(owner.agent, org.id);
      const res = await put(owner.agent, {
        organization: org.id,
        type: '409A',
        pricePerShare: '0.8500',
        security: security.id,
        effectiveDate: '2024-03-31',
        provider: '  Acme Valuations LLC ',
        reportFile,
      }).expect(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        type: '409A',
        pricePerShare: '0.85',
        security: security.id,
        effectiveDate: '2024-03-31',
        provider: 'Acme Valuations LLC',
        reportFile,
        created: expect.stringMatching(ISO_TIME),
        updated: expect.stringMatching(ISO_TIME),
      });
      // The same record on both reads.
      await owner.agent
        .get(`/v1/valuation/${res.body.id}`)
        .expect(200)
        .expect(({ body }) => expect(body).toEqual(res.body));
      expect(await list(owner.agent, org.id)).toEqual([res.body]);
    });

    it('leaves the optional fields null and takes a JSON number price exactly', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const res = await put(owner.agent, {
        organization: org.id,
        type: 'preferred_round',
        pricePerShare: 2.5,
        effectiveDate: '2023-12-31',
      }).expect(200);
      expect(res.body).toMatchObject({
        type: 'preferred_round',
        pricePerShare: '2.5',
        security: null,
        provider: null,
        reportFile: null,
        effectiveDate: '2023-12-31',
      });
      // Explicit nulls are the same as omitted.
      const nulls = await put(owner.agent, {
        organization: org.id,
        type: 'common',
        pricePerShare: '3',
        effectiveDate: '2023-12-31',
        security: null,
        provider: null,
        reportFile: null,
      }).expect(200);
      expect(nulls.body).toMatchObject({ security: null, provider: null, reportFile: null });
    });

    it('keeps prices exact at the column limits (28 digits before the point, 10 after)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const tiny = await record(owner.agent, org, { pricePerShare: '0.0000000001' });
      expect(tiny.pricePerShare).toBe('0.0000000001');
      const huge = await record(owner.agent, org, {
        pricePerShare: '1234567890123456789012345678.0123456789',
      });
      expect(huge.pricePerShare).toBe('1234567890123456789012345678.0123456789');
      const read = await owner.agent.get(`/v1/valuation/${huge.id}`).expect(200);
      expect(read.body.pricePerShare).toBe('1234567890123456789012345678.0123456789');
    });

    it('appends a VALUATION_RECORDED transaction to the log, with the actor and effective date', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const before = await logRows(org.id);
      const v = await record(owner.agent, org, {
        pricePerShare: '4.20',
        effectiveDate: '2024-05-15',
        provider: 'Firm',
      });
      const rows = await logRows(org.id);
      expect(rows).toHaveLength(before.length + 1);
      const row = rows[rows.length - 1];
      expect(row).toMatchObject({
        organizationId: org.id,
        type: 'VALUATION_RECORDED',
        effectiveDate: '2024-05-15',
        actorUserId: owner.user.id,
        payload: {
          valuation: {
            id: v.id,
            type: '409A',
            pricePerShare: '4.2',
            securityId: null,
            effectiveDate: '2024-05-15',
            provider: 'Firm',
            reportFileId: null,
          },
        },
      });
      expect(row.recordedAt).toBeInstanceOf(Date);
      // The log is append-only: the database refuses to change or delete the row.
      await expect(
        ds.query('UPDATE equity_transaction SET effective_date = $2 WHERE id = $1', [
          row.id,
          '2020-01-01',
        ]),
      ).rejects.toThrow(/append-only/);
      await expect(
        ds.query('DELETE FROM equity_transaction WHERE id = $1', [row.id]),
      ).rejects.toThrow(/append-only/);
    });

    it('records a valuation.created event (spec section 6 object) that reaches the activity log', async () => {
      const { owner, org } = await ownerWithOrg(t, 'Evented Valuation');
      const v = await record(owner.agent, org, {
        pricePerShare: '0.85',
        effectiveDate: '2024-03-31',
      });
      const events = await outbox(org.id, 'valuation.created');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        actorUserId: owner.user.id,
        data: { object: v, previous_attributes: {} },
        description: 'valuation 409A of 2024-03-31: 0.85 per share',
      });
      const entry = await eventually(async () => {
        const res = await owner.agent.get(`/v1/organization/${org.id}/action`).expect(200);
        return (res.body as { type: string; description: string; userId: string }[]).find(
          (a) => a.type === 'valuation.created',
        );
      });
      expect(entry).toMatchObject({
        description: 'valuation 409A of 2024-03-31: 0.85 per share',
        userId: owner.user.id,
      });
    });

    it('refuses invalid bodies with 400 in the spec format and records nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const valid = {
        organization: org.id,
        type: '409A',
        pricePerShare: '1.25',
        effectiveDate: '2024-01-01',
      };
      const before = await snapshot(owner.agent, org.id);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ type: '409A!' }, /type must be letters/],
        [{ type: '   ' }, /type/],
        [{ type: 'x'.repeat(41) }, /type/],
        [{ type: 42 }, /type/],
        [{ pricePerShare: '-1' }, /pricePerShare/],
        [{ pricePerShare: -1 }, /pricePerShare/],
        [{ pricePerShare: '0' }, /pricePerShare must be more than 0/],
        [{ pricePerShare: 'abc' }, /pricePerShare/],
        [{ pricePerShare: '1e3' }, /pricePerShare/],
        [{ pricePerShare: '1.00000000001' }, /pricePerShare/],
        [{ pricePerShare: '12345678901234567890123456789' }, /pricePerShare/],
        [{ effectiveDate: '2024-02-30' }, /effectiveDate must be a date YYYY-MM-DD/],
        [{ effectiveDate: '2023-02-29' }, /effectiveDate/],
        [{ effectiveDate: '2024/01/01' }, /effectiveDate/],
        [{ effectiveDate: '2024-1-1' }, /effectiveDate/],
        [{ effectiveDate: '2024-01-01T00:00:00Z' }, /effectiveDate/],
        [{ effectiveDate: '0000-01-01' }, /effectiveDate/],
        [{ security: 'not-a-uuid' }, /security/],
        [{ reportFile: 'report.pdf' }, /reportFile/],
        [{ provider: 'p'.repeat(201) }, /provider/],
        [{ provider: 12 }, /provider/],
        [{ id: 'nope' }, /id must be a UUID/],
      ];
      for (const [change, message] of cases) {
        const res = await put(owner.agent, { ...valid, ...change });
        expect({ change, status: res.status }).toEqual({ change, status: 400 });
        expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(message) });
      }
      // A missing field is `invalidFields` (spec section 7).
      for (const field of ['type', 'pricePerShare', 'effectiveDate']) {
        const body: Record<string, unknown> = { ...valid };
        delete body[field];
        const res = await put(owner.agent, body).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          key: 'invalidFields',
          message: expect.stringContaining(`${field} is required`),
        });
      }
      // Without an organization the guard cannot place the request.
      const noOrg = await put(owner.agent, { ...valid, organization: undefined }).expect(400);
      expect(noOrg.body).toMatchObject({ error: 'Bad Request', key: 'invalidFields' });
      await put(owner.agent, { ...valid, organization: 'acme' })
        .expect(400)
        .expect(({ body }) =>
          expect(body).toEqual({ error: 'Bad Request', message: 'organization must be a UUID' }),
        );
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('refuses a class of another organization, or a deleted or unknown one (404), recording nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const other = await ownerWithOrg(t, 'Other Co');
      const theirs = await createSecurity(other.owner.agent, other.org.id);
      const deleted = await createSecurity(owner.agent, org.id, { name: 'Gone', idPrefix: 'G-' });
      await owner.agent.delete(`/v1/organization/${org.id}/security/${deleted.id}`).expect(200);
      const before = await snapshot(owner.agent, org.id);
      for (const security of [theirs.id, deleted.id, UNKNOWN]) {
        await put(owner.agent, {
          organization: org.id,
          type: '409A',
          pricePerShare: '1',
          effectiveDate: '2024-01-01',
          security,
        })
          .expect(404)
          .expect(errorBody(404));
      }
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
      expect(await list(other.owner.agent, other.org.id)).toEqual([]);
    });

    it('answers 404 to an organization that does not exist', async () => {
      const { owner } = await ownerWithOrg(t);
      await put(owner.agent, {
        organization: UNKNOWN,
        type: '409A',
        pricePerShare: '1',
        effectiveDate: '2024-01-01',
      })
        .expect(404)
        .expect(errorBody(404));
    });
  });

  describe('PUT /v1/valuation (update with id)', () => {
    it('updates in place: 200, same id and created, the changed fields only', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const v = await record(owner.agent, org, {
        pricePerShare: '0.85',
        effectiveDate: '2024-03-31',
        provider: 'First Firm',
      });
      const res = await put(owner.agent, {
        organization: org.id,
        id: v.id,
        type: '409A',
        pricePerShare: '0.9',
        security: security.id,
        effectiveDate: '2024-04-01',
        provider: 'First Firm',
      }).expect(200);
      expect(res.body).toEqual({
        ...v,
        pricePerShare: '0.9',
        security: security.id,
        effectiveDate: '2024-04-01',
        updated: expect.stringMatching(ISO_TIME),
      });
      expect(Date.parse(res.body.updated)).toBeGreaterThanOrEqual(Date.parse(v.updated));
      const read = await owner.agent.get(`/v1/valuation/${v.id}`).expect(200);
      expect(read.body).toEqual(res.body);
      expect(await list(owner.agent, org.id)).toEqual([res.body]);

      // PUT replaces: what is left out becomes null.
      const cleared = await put(owner.agent, {
        organization: org.id,
        id: v.id,
        type: 'fair_market_value',
        pricePerShare: '0.9',
        effectiveDate: '2024-04-01',
      }).expect(200);
      expect(cleared.body).toMatchObject({
        id: v.id,
        type: 'fair_market_value',
        security: null,
        provider: null,
      });
    });

    it('answers 200 both when it creates (no id) and when it updates (id), never 201', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const body = {
        organization: org.id,
        type: 'common',
        pricePerShare: '2',
        effectiveDate: '2024-05-01',
      };
      const created = await put(owner.agent, body);
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ ...body, id: expect.stringMatching(UUID) });
      const updated = await put(owner.agent, { ...body, id: created.body.id, pricePerShare: '3' });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({
        ...created.body,
        pricePerShare: '3',
        updated: expect.stringMatching(ISO_TIME),
      });
      // Two requests, one valuation: the first created it, the second changed it.
      expect(await list(owner.agent, org.id)).toEqual([updated.body]);
      expect((await logRows(org.id)).slice(-2).map((r) => r.type)).toEqual([
        'VALUATION_RECORDED',
        'VALUATION_AMENDED',
      ]);
    });

    it('logs a VALUATION_AMENDED with only the changes, and a valuation.updated event with previous attributes', async () => {
      const { owner, org } = await ownerWithOrg(t, 'Amended');
      const v = await record(owner.agent, org, {
        pricePerShare: '0.85',
        effectiveDate: '2024-03-31',
      });
      const logBefore = (await logRows(org.id)).length;
      const res = await put(owner.agent, {
        organization: org.id,
        id: v.id,
        type: '409A',
        pricePerShare: '1.10',
        effectiveDate: '2024-03-31',
        provider: 'Second Firm',
      }).expect(200);
      const rows = await logRows(org.id);
      expect(rows).toHaveLength(logBefore + 1);
      expect(rows[rows.length - 1]).toMatchObject({
        type: 'VALUATION_AMENDED',
        effectiveDate: '2024-03-31',
        actorUserId: owner.user.id,
        payload: { valuationId: v.id, changes: { pricePerShare: '1.1', provider: 'Second Firm' } },
      });
      expect(Object.keys(rows[rows.length - 1].payload.changes as object).sort()).toEqual([
        'pricePerShare',
        'provider',
      ]);

      const events = await outbox(org.id, 'valuation.updated');
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual({
        object: res.body,
        previous_attributes: { pricePerShare: '0.85', provider: null },
      });
      expect(events[0].actorUserId).toBe(owner.user.id);
      const entry = await eventually(async () => {
        const list = await owner.agent.get(`/v1/organization/${org.id}/action`).expect(200);
        return (list.body as { type: string; description: string }[]).find(
          (a) => a.type === 'valuation.updated',
        );
      });
      expect(entry!.description).toBe(
        'valuation 409A of 2024-03-31: changed pricePerShare, provider',
      );

      // The activity names fields as the API does (security, reportFile), like previous_attributes.
      const security = await createSecurity(owner.agent, org.id);
      const reportFile = await reportOf(owner.agent, org.id);
      const second = await put(owner.agent, {
        organization: org.id,
        id: v.id,
        type: '409A',
        pricePerShare: '1.10',
        effectiveDate: '2024-03-31',
        provider: 'Second Firm',
        security: security.id,
        reportFile,
      }).expect(200);
      const updates = await outbox(org.id, 'valuation.updated');
      expect(updates).toHaveLength(2);
      expect(updates[1]).toMatchObject({
        data: { object: second.body, previous_attributes: { security: null, reportFile: null } },
        description: 'valuation 409A of 2024-03-31: changed security, reportFile',
      });
      // The class's STOCK_CLASS_CREATED, then the amendment.
      expect((await logRows(org.id)).length).toBe(rows.length + 2);
      expect((await logRows(org.id)).pop()!.payload).toEqual({
        valuationId: v.id,
        changes: { securityId: security.id, reportFileId: reportFile },
      });
    });

    it('an unchanged PUT (same values, other spelling) answers 200 and records nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v = await record(owner.agent, org, { pricePerShare: '0.85', provider: 'Firm' });
      const before = await snapshot(owner.agent, org.id);
      const res = await put(owner.agent, {
        organization: org.id,
        id: v.id,
        type: ' 409A ',
        pricePerShare: '0.850',
        effectiveDate: '2024-01-01',
        provider: 'Firm ',
      }).expect(200);
      expect(res.body).toEqual(v);
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('refuses an invalid update (400) or an unknown id (404) and changes nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v = await record(owner.agent, org);
      const before = await snapshot(owner.agent, org.id);
      const base = { organization: org.id, id: v.id, type: '409A', effectiveDate: '2024-01-01' };
      await put(owner.agent, { ...base, pricePerShare: '-0.5' }).expect(400);
      await put(owner.agent, { ...base, pricePerShare: '1', effectiveDate: '2024-13-01' }).expect(
        400,
      );
      await put(owner.agent, { ...base, pricePerShare: '1', security: UNKNOWN }).expect(404);
      await put(owner.agent, { ...base, id: UNKNOWN, pricePerShare: '2' })
        .expect(404)
        .expect(errorBody(404));
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });
  });

  describe('GET /v1/organization/:organization/valuation and /v1/valuation/:valuation', () => {
    it('lists the organization’s valuations, latest effective date first, and no one else’s', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const other = await ownerWithOrg(t, 'Elsewhere');
      await record(other.owner.agent, other.org, { effectiveDate: '2025-01-01' });
      const jan = await record(owner.agent, org, { effectiveDate: '2024-01-01' });
      const jun = await record(owner.agent, org, { effectiveDate: '2024-06-30' });
      const mar = await record(owner.agent, org, { effectiveDate: '2024-03-15' });
      const res = await list(owner.agent, org.id);
      expect(res.map((v) => v.id)).toEqual([jun.id, mar.id, jan.id]);
      // Moving a valuation's date moves it in the list.
      await put(owner.agent, {
        organization: org.id,
        id: jan.id,
        type: '409A',
        pricePerShare: '1.25',
        effectiveDate: '2024-12-31',
      }).expect(200);
      expect((await list(owner.agent, org.id)).map((v) => v.id)).toEqual([jan.id, jun.id, mar.id]);
    });

    it('answers 404 for an unknown valuation, 400 for a malformed id or unknown filter', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await owner.agent.get(`/v1/valuation/${UNKNOWN}`).expect(404).expect(errorBody(404));
      await owner.agent.get('/v1/valuation/not-a-uuid').expect(400);
      await owner.agent.get('/v1/organization/not-a-uuid/valuation').expect(400);
      // A misspelt filter is refused, not ignored.
      await owner.agent
        .get(`/v1/organization/${org.id}/valuation`)
        .query({ security: UNKNOWN })
        .expect(400)
        .expect(({ body }) =>
          expect(body).toEqual({ message: expect.stringContaining('security') }),
        );
      await owner.agent
        .get(`/v1/organization/${UNKNOWN}/valuation`)
        .expect(404)
        .expect(errorBody(404));
    });

    it('the dashboard shows the latest valuation in effect', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const dash = async (asOf?: string) =>
        (
          await owner.agent
            .get(`/v1/captable/${org.id}/dashboard`)
            .query(asOf ? { asOf } : {})
            .expect(200)
        ).body.latestValuation;
      expect(await dash()).toBeNull();
      const early = await record(owner.agent, org, {
        effectiveDate: '2024-01-01',
        pricePerShare: '1',
      });
      const later = await record(owner.agent, org, {
        effectiveDate: '2024-06-30',
        pricePerShare: '2',
      });
      expect(await dash()).toEqual(later);
      expect(await dash('2024-03-01')).toEqual(early);
    });
  });

  describe('authentication and permissions', () => {
    it('401 without a session on every route', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v = await record(owner.agent, org);
      await t.http
        .put('/v1/valuation')
        .send({
          organization: org.id,
          type: '409A',
          pricePerShare: '1',
          effectiveDate: '2024-01-01',
        })
        .expect(401)
        .expect(errorBody(401));
      await t.http
        .put('/v1/valuation')
        .send({
          organization: org.id,
          id: v.id,
          type: '409A',
          pricePerShare: '9',
          effectiveDate: '2024-01-01',
        })
        .expect(401);
      await t.http.get(`/v1/organization/${org.id}/valuation`).expect(401).expect(errorBody(401));
      await t.http.get(`/v1/valuation/${v.id}`).expect(401).expect(errorBody(401));
      expect(await list(owner.agent, org.id)).toEqual([v]);
    });

    it('follows the role permissions: canEdit to write, canViewCapTable to list, canViewValuation to read one', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const roles = (await owner.agent.get(`/v1/organization/${org.id}/role`).expect(200)).body as {
        name: string;
        permissions: string[];
      }[];
      const perms = (name: string) => roles.find((r) => r.name === name)!.permissions;
      expect(perms('Viewer')).toEqual(
        expect.arrayContaining(['canViewCapTable', 'canViewValuation']),
      );
      expect(perms('Viewer')).not.toContain('canEdit');
      expect(perms('Shareholder')).not.toEqual(expect.arrayContaining(['canViewCapTable']));
      expect(perms('Shareholder')).not.toContain('canViewValuation');
      expect(perms('Shareholder')).not.toContain('canEdit');
      expect(perms('Editor')).toContain('canEdit');

      const v = await record(owner.agent, org);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      const update = {
        organization: org.id,
        id: v.id,
        type: '409A',
        pricePerShare: '99',
        effectiveDate: '2024-01-01',
      };
      const create = { ...update, id: undefined };

      for (const who of [viewer, shareholder]) {
        await put(who.agent, create).expect(403).expect(errorBody(403));
        await put(who.agent, update).expect(403).expect(errorBody(403));
      }
      await viewer.agent.get(`/v1/organization/${org.id}/valuation`).expect(200);
      await viewer.agent
        .get(`/v1/valuation/${v.id}`)
        .expect(200)
        .expect(({ body }) => expect(body).toEqual(v));
      await shareholder.agent
        .get(`/v1/organization/${org.id}/valuation`)
        .expect(403)
        .expect(errorBody(403));
      await shareholder.agent.get(`/v1/valuation/${v.id}`).expect(403).expect(errorBody(403));
      expect(await list(owner.agent, org.id)).toEqual([v]);

      const created = await put(editor.agent, create).expect(200);
      const updated = await put(editor.agent, update).expect(200);
      expect(updated.body.pricePerShare).toBe('99');
      const rows = await logRows(org.id);
      expect(rows.slice(-2).map((r) => [r.type, r.actorUserId])).toEqual([
        ['VALUATION_RECORDED', editor.user.id],
        ['VALUATION_AMENDED', editor.user.id],
      ]);
      expect((await list(owner.agent, org.id)).map((x) => x.id).sort()).toEqual(
        [v.id, created.body.id].sort(),
      );
    });

    it('checks exactly the permissions the spec names (custom roles)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v = await record(owner.agent, org);
      const role = async (name: string, permissions: string[]) =>
        (
          await owner.agent
            .post(`/v1/organization/${org.id}/role`)
            .send({ name, permissions })
            .expect(201)
        ).body.id as string;
      const capTableEditor = await memberAgent(
        t,
        owner.agent,
        org.id,
        await role('Cap table editor', [
          'canViewOrganization',
          'canEditCapTable',
          'canViewCapTable',
        ]),
      );
      const valuationReader = await memberAgent(
        t,
        owner.agent,
        org.id,
        await role('Valuation reader', ['canViewValuation']),
      );
      const editOnly = await memberAgent(
        t,
        owner.agent,
        org.id,
        await role('Editor only', ['canEdit']),
      );
      const body = {
        organization: org.id,
        type: '409A',
        pricePerShare: '5',
        effectiveDate: '2024-02-02',
      };

      // canEditCapTable is not canEdit.
      await put(capTableEditor.agent, body).expect(403);
      await capTableEditor.agent.get(`/v1/organization/${org.id}/valuation`).expect(200);
      await capTableEditor.agent.get(`/v1/valuation/${v.id}`).expect(403);
      // canViewValuation reads one, not the list.
      await valuationReader.agent.get(`/v1/valuation/${v.id}`).expect(200);
      await valuationReader.agent.get(`/v1/organization/${org.id}/valuation`).expect(403);
      await put(valuationReader.agent, body).expect(403);
      // canEdit alone writes.
      const made = await put(editOnly.agent, body).expect(200);
      await editOnly.agent.get(`/v1/valuation/${made.body.id}`).expect(403);
    });

    it('a removed member loses access (403)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v = await record(owner.agent, org);
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      await editor.agent.get(`/v1/valuation/${v.id}`).expect(200);
      await owner.agent.delete(`/v1/organization/${org.id}/member/${editor.member.id}`).expect(200);
      await editor.agent.get(`/v1/valuation/${v.id}`).expect(403);
      await put(editor.agent, {
        organization: org.id,
        id: v.id,
        type: '409A',
        pricePerShare: '7',
        effectiveDate: '2024-01-01',
      }).expect(403);
      expect(await list(owner.agent, org.id)).toEqual([v]);
    });
  });

  describe('another organization', () => {
    it('cannot read, list or change another organization’s valuation, whichever organization it names', async () => {
      const a = await ownerWithOrg(t, 'A Corp');
      const b = await ownerWithOrg(t, 'B Corp');
      const va = await record(a.owner.agent, a.org, { pricePerShare: '1.25', provider: 'A firm' });
      const vb = await record(b.owner.agent, b.org, { pricePerShare: '3' });
      const beforeA = await snapshot(a.owner.agent, a.org.id);
      const beforeB = await snapshot(b.owner.agent, b.org.id);
      const fields = { type: '409A', pricePerShare: '0.01', effectiveDate: '2024-01-01' };

      // Reads.
      await b.owner.agent.get(`/v1/valuation/${va.id}`).expect(403).expect(errorBody(403));
      await b.owner.agent
        .get(`/v1/organization/${a.org.id}/valuation`)
        .expect(403)
        .expect(errorBody(403));
      // Writes naming A: not a member of A.
      await put(b.owner.agent, { ...fields, organization: a.org.id }).expect(403);
      await put(b.owner.agent, { ...fields, organization: a.org.id, id: va.id })
        .expect(403)
        .expect(errorBody(403));
      // Writes naming B with A's valuation: not a valuation of B. No new one is created either.
      await put(b.owner.agent, { ...fields, organization: b.org.id, id: va.id })
        .expect(404)
        .expect(errorBody(404));
      // A's own owner cannot move A's valuation into B or B's into A: the id is not a record of
      // the named organization (decided before membership, so 404 either way).
      await put(a.owner.agent, { ...fields, organization: b.org.id, id: va.id }).expect(404);
      await put(a.owner.agent, { ...fields, organization: a.org.id, id: vb.id }).expect(404);

      expect(await snapshot(a.owner.agent, a.org.id)).toEqual(beforeA);
      expect(await snapshot(b.owner.agent, b.org.id)).toEqual(beforeB);
      expect((await a.owner.agent.get(`/v1/valuation/${va.id}`).expect(200)).body).toEqual(va);
      expect((await b.owner.agent.get(`/v1/valuation/${vb.id}`).expect(200)).body).toEqual(vb);
    });

    it('a member of both organizations cannot carry a valuation across them', async () => {
      const a = await ownerWithOrg(t, 'A Corp');
      const b = await ownerWithOrg(t, 'B Corp');
      const both = await memberAgent(t, a.owner.agent, a.org.id, 'Editor');
      await joinByInvitation(b.owner.agent, b.org.id, both.agent, both.email, 'Editor');
      const va = await record(a.owner.agent, a.org);
      const beforeA = await snapshot(a.owner.agent, a.org.id);
      const beforeB = await snapshot(b.owner.agent, b.org.id);
      await put(both.agent, {
        organization: b.org.id,
        id: va.id,
        type: '409A',
        pricePerShare: '2',
        effectiveDate: '2024-01-01',
      }).expect(404);
      expect(await snapshot(a.owner.agent, a.org.id)).toEqual(beforeA);
      expect(await snapshot(b.owner.agent, b.org.id)).toEqual(beforeB);
    });
  });

  it('the log replays to the stored valuations after a scripted history (ledger:verify)', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const security = await createSecurity(owner.agent, org.id);
    const v1 = await record(owner.agent, org, { pricePerShare: '0.5', security: security.id });
    const v2 = await record(owner.agent, org, {
      pricePerShare: '0.75',
      effectiveDate: '2024-07-01',
    });
    for (const price of ['0.55', '0.6', '0.6']) {
      await put(owner.agent, {
        organization: org.id,
        id: v1.id,
        type: '409A',
        pricePerShare: price,
        effectiveDate: '2024-02-01',
        provider: `Firm ${price}`,
      }).expect(200);
    }
    await put(owner.agent, {
      organization: org.id,
      id: v2.id,
      type: 'preferred_round',
      pricePerShare: '0.75',
      effectiveDate: '2024-07-01',
      security: security.id,
    }).expect(200);
    const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org.id);
    expect(verification).toMatchObject({ differences: [], moveDifferences: [], transactions: 6 });
    expect(verification.replayError).toBeUndefined();
    const types = (await logRows(org.id)).map((r) => r.type);
    expect(types.filter((x) => x.startsWith('VALUATION_'))).toEqual([
      'VALUATION_RECORDED',
      'VALUATION_RECORDED',
      'VALUATION_AMENDED',
      'VALUATION_AMENDED',
      'VALUATION_AMENDED',
    ]);
  });
});
