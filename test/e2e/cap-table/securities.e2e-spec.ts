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

interface ActionBody {
  id: string;
  type: string;
  description: string;
  userId: string | null;
  metadata: Record<string, unknown>;
}

const FULL = {
  name: 'Series A Preferred',
  classType: 'preferred',
  idPrefix: 'PA-',
  authorizedShares: '5000000',
  parValue: '0.0001',
  originalIssuePrice: '1.25',
  currency: 'EUR',
  seniority: 2,
  liquidationPreferenceMultiple: '1',
  participating: true,
  participationCapMultiple: '3',
  conversionRatio: '1.5',
  votesPerShare: '2',
  boardApprovalDate: '2024-01-10',
};

describe('share classes (securities)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get<DataSource>(DataSource);
  });
  afterAll(() => t.close());

  const path = (org: string, id?: string) =>
    `/v1/organization/${org}/security${id ? `/${id}` : ''}`;

  const log = (org: string): Promise<LogRow[]> =>
    db.query(
      `SELECT type, effective_date::text AS effective_date, actor_user_id, payload
       FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
      [org],
    );
  const events = (org: string, prefix = 'security.'): Promise<EventRow[]> =>
    db.query(
      `SELECT type, actor_user_id, description, data FROM outbox_event
       WHERE organization_id = $1 AND type LIKE $2 ORDER BY sequence`,
      [org, `${prefix}%`],
    );

  /** What the organization's classes and log look like, to show that a refusal changed nothing. */
  const snapshot = async (agent: Agent, org: string) => ({
    classes: (await agent.get(path(org)).expect(200)).body,
    log: await log(org),
    events: await events(org),
  });

  describe('POST /v1/organization/:organization/security', () => {
    it('creates a class with every field and answers it with id, organization, issuedShares and created', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const res = await owner.agent.post(path(org.id)).send(FULL).expect(201);
      expect(res.body).toEqual({
        ...FULL,
        id: expect.stringMatching(UUID),
        organization: org.id,
        issuedShares: '0',
        reservedShares: '0',
        created: expect.stringMatching(TIMESTAMP),
        updated: expect.stringMatching(TIMESTAMP),
      });
      // The same record through both reads.
      expect((await owner.agent.get(path(org.id, res.body.id)).expect(200)).body).toEqual(res.body);
      expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual([res.body]);

      // One transaction of the log, dated by the board approval, by the caller.
      const rows = await log(org.id);
      expect(rows).toEqual([
        {
          type: 'STOCK_CLASS_CREATED',
          effective_date: '2024-01-10',
          actor_user_id: owner.user.id,
          payload: {
            security: {
              id: res.body.id,
              name: FULL.name,
              classType: 'preferred',
              idPrefix: 'PA-',
              authorizedShares: '5000000',
              parValue: '0.0001',
              originalIssuePrice: '1.25',
              currency: 'EUR',
              seniority: 2,
              liquidationPreferenceMultiple: '1',
              participating: true,
              participationCapMultiple: '3',
              conversionRatio: '1.5',
              votesPerShare: '2',
              boardApprovalDate: '2024-01-10',
            },
          },
        },
      ]);
    });

    it('fills the defaults: no prices, the organization’s currency, seniority 1, ratios 1', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await owner.agent.patch(`/v1/organization/${org.id}`).send({ currency: 'CHF' }).expect(200);
      const res = await owner.agent
        .post(path(org.id))
        .send({
          name: '  Common  ',
          classType: 'common',
          idPrefix: 'CS-',
          authorizedShares: '1000',
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        name: 'Common',
        classType: 'common',
        idPrefix: 'CS-',
        authorizedShares: '1000',
        issuedShares: '0',
        reservedShares: '0',
        parValue: null,
        originalIssuePrice: null,
        currency: 'CHF',
        seniority: 1,
        liquidationPreferenceMultiple: null,
        participating: false,
        participationCapMultiple: null,
        conversionRatio: '1',
        votesPerShare: '1',
        boardApprovalDate: null,
        created: expect.stringMatching(TIMESTAMP),
        updated: expect.stringMatching(TIMESTAMP),
      });
      const [row] = await log(org.id);
      // Without a board approval date the class takes effect the day it is recorded.
      expect(row).toMatchObject({ type: 'STOCK_CLASS_CREATED', effective_date: today() });
    });

    it('takes decimals as strings or JSON numbers and answers canonical decimal strings', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const res = await owner.agent
        .post(path(org.id))
        .send({
          name: 'Common',
          classType: 'common',
          idPrefix: 'CS-',
          authorizedShares: 10000000,
          parValue: '0.00010',
          originalIssuePrice: 2.5,
          conversionRatio: '1.0',
          currency: 'gbp',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        authorizedShares: '10000000',
        parValue: '0.0001',
        originalIssuePrice: '2.5',
        conversionRatio: '1',
        currency: 'GBP',
      });
      // Exact beyond double precision: 28 digits before the point, 10 after.
      const big = await owner.agent
        .post(path(org.id))
        .send({
          name: 'Huge',
          classType: 'common',
          idPrefix: 'HG-',
          authorizedShares: '9999999999999999999999999999',
          parValue: '0.0000000001',
        })
        .expect(201);
      expect(big.body).toMatchObject({
        authorizedShares: '9999999999999999999999999999',
        parValue: '0.0000000001',
      });
    });

    it('ignores fields the client does not set: id, organization and issuedShares', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const other = await ownerWithOrg(t);
      const res = await owner.agent
        .post(path(org.id))
        .send({
          name: 'Common',
          classType: 'common',
          idPrefix: 'CS-',
          authorizedShares: '1000',
          id: UNKNOWN,
          organization: other.org.id,
          issuedShares: '900',
        })
        .expect(201);
      expect(res.body.id).not.toBe(UNKNOWN);
      expect(res.body).toMatchObject({ organization: org.id, issuedShares: '0' });
      expect((await other.owner.agent.get(path(other.org.id)).expect(200)).body).toEqual([]);
    });

    it('allows fractional authorized units for an LLC only', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const refused = await owner.agent
        .post(path(org.id))
        .send({ name: 'Common', classType: 'common', idPrefix: 'CS-', authorizedShares: '100.5' })
        .expect(400);
      expect(refused.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('authorizedShares'),
        field: 'authorizedShares',
      });
      expect(await log(org.id)).toEqual([]);

      const llc = await owner.agent
        .post('/v1/organization')
        .send({ name: 'Units LLC', type: 'llc' })
        .expect(201);
      const units = await owner.agent
        .post(path(llc.body.id))
        .send({ name: 'Units', classType: 'common', idPrefix: 'U-', authorizedShares: '100.5' })
        .expect(201);
      expect(units.body.authorizedShares).toBe('100.5');
    });

    it.each([
      ['name missing', { name: undefined }, 'name', true],
      ['name blank', { name: '   ' }, 'name', false],
      ['name too long', { name: 'x'.repeat(201) }, 'name', false],
      ['classType missing', { classType: undefined }, 'classType', true],
      ['classType not common/preferred', { classType: 'ordinary' }, 'classType', false],
      ['idPrefix missing', { idPrefix: undefined }, 'idPrefix', true],
      ['idPrefix too long', { idPrefix: 'P'.repeat(21) }, 'idPrefix', false],
      ['idPrefix with a space', { idPrefix: 'C S' }, 'idPrefix', false],
      ['idPrefix empty', { idPrefix: '' }, 'idPrefix', false],
      ['authorizedShares missing', { authorizedShares: undefined }, 'authorizedShares', true],
      ['authorizedShares negative', { authorizedShares: '-5' }, 'authorizedShares', false],
      ['authorizedShares negative number', { authorizedShares: -5 }, 'authorizedShares', false],
      ['authorizedShares not decimal', { authorizedShares: 'lots' }, 'authorizedShares', false],
      ['authorizedShares exponent', { authorizedShares: '1e6' }, 'authorizedShares', false],
      ['authorizedShares hex', { authorizedShares: '0x10' }, 'authorizedShares', false],
      [
        'authorizedShares 11 decimals',
        { authorizedShares: '1.00000000001' },
        'authorizedShares',
        false,
      ],
      [
        'authorizedShares 29 digits',
        { authorizedShares: '1'.repeat(29) },
        'authorizedShares',
        false,
      ],
      ['authorizedShares boolean', { authorizedShares: true }, 'authorizedShares', false],
      ['authorizedShares null', { authorizedShares: null }, 'authorizedShares', false],
      ['parValue negative', { parValue: '-0.01' }, 'parValue', false],
      ['originalIssuePrice text', { originalIssuePrice: 'one' }, 'originalIssuePrice', false],
      ['currency not ISO 4217', { currency: 'XYZ' }, 'currency', false],
      ['seniority fractional', { seniority: 1.5 }, 'seniority', false],
      ['seniority as text', { seniority: '2' }, 'seniority', false],
      ['seniority negative', { seniority: -1 }, 'seniority', false],
      ['seniority over 1000', { seniority: 1001 }, 'seniority', false],
      ['conversionRatio negative', { conversionRatio: -1 }, 'conversionRatio', false],
      ['votesPerShare text', { votesPerShare: 'many' }, 'votesPerShare', false],
      [
        'boardApprovalDate impossible',
        { boardApprovalDate: '2023-02-29' },
        'boardApprovalDate',
        false,
      ],
      [
        'boardApprovalDate not ISO',
        { boardApprovalDate: '10/01/2024' },
        'boardApprovalDate',
        false,
      ],
    ])(
      'refuses %s with 400 and creates nothing',
      async (_case, change: Record<string, unknown>, field, missing) => {
        const { owner, org } = await ownerWithOrg(t);
        const body: Record<string, unknown> = {
          name: 'Common',
          classType: 'common',
          idPrefix: 'CS-',
          authorizedShares: '1000',
          ...change,
        };
        for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
        const res = await owner.agent.post(path(org.id)).send(body).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          ...(missing ? { key: 'invalidFields' } : {}),
          message: expect.stringContaining(field),
        });
        expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual([]);
        expect(await log(org.id)).toEqual([]);
        expect(await events(org.id)).toEqual([]);
      },
    );

    it('refuses a name or idPrefix another live class has (409); a deleted class frees them', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const first = await createSecurity(owner.agent, org.id, { name: 'Common', idPrefix: 'CS-' });
      const before = await snapshot(owner.agent, org.id);
      const sameName = await owner.agent
        .post(path(org.id))
        .send({ name: 'Common', classType: 'common', idPrefix: 'CX-', authorizedShares: '1' })
        .expect(409);
      expect(sameName.body).toEqual({ error: 'Conflict', message: expect.any(String) });
      await owner.agent
        .post(path(org.id))
        .send({ name: 'Other', classType: 'common', idPrefix: 'CS-', authorizedShares: '1' })
        .expect(409);
      expect(await snapshot(owner.agent, org.id)).toEqual(before);

      // Another organization may use both.
      const other = await ownerWithOrg(t);
      await createSecurity(other.owner.agent, other.org.id, { name: 'Common', idPrefix: 'CS-' });

      await owner.agent.delete(path(org.id, first.id)).expect(200);
      await createSecurity(owner.agent, org.id, { name: 'Common', idPrefix: 'CS-' });
    });
  });

  describe('GET /v1/organization/:organization/security', () => {
    it('lists the live classes of the organization, most senior first, then oldest first', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const common = await createSecurity(owner.agent, org.id, { name: 'Common', idPrefix: 'CS-' });
      const seed = await createSecurity(owner.agent, org.id, {
        name: 'Seed',
        classType: 'preferred',
        idPrefix: 'PS-',
        seniority: 2,
      });
      const seriesA = await createSecurity(owner.agent, org.id, {
        name: 'Series A',
        classType: 'preferred',
        idPrefix: 'PA-',
        seniority: 3,
      });
      const common2 = await createSecurity(owner.agent, org.id, {
        name: 'Common B',
        idPrefix: 'CB-',
      });
      const gone = await createSecurity(owner.agent, org.id, { name: 'Gone', idPrefix: 'G-' });
      await owner.agent.delete(path(org.id, gone.id)).expect(200);
      // Another organization's classes never show.
      const other = await ownerWithOrg(t);
      await createSecurity(other.owner.agent, other.org.id);

      const res = await owner.agent.get(path(org.id)).expect(200);
      expect(res.body.map((s: { id: string }) => s.id)).toEqual([
        seriesA.id,
        seed.id,
        common.id,
        common2.id,
      ]);
      expect(res.body[0]).toEqual(
        (await owner.agent.get(path(org.id, seriesA.id)).expect(200)).body,
      );
    });

    it('answers an empty array for an organization without classes', async () => {
      const { owner, org } = await ownerWithOrg(t);
      expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual([]);
    });
  });

  describe('GET /v1/organization/:organization/security/:security', () => {
    it('shows the issued shares of the class as they grow', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '250',
      });
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '50',
      });
      const res = await owner.agent.get(path(org.id, security.id)).expect(200);
      expect(res.body).toMatchObject({ authorizedShares: '1000', issuedShares: '300' });
    });

    it('is 404 for an unknown id and 400 for an id that is not a UUID', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await owner.agent.get(path(org.id, UNKNOWN)).expect(404).expect(errorBody(404));
      const bad = await owner.agent.get(path(org.id, 'not-a-uuid')).expect(400);
      expect(bad.body).toEqual({ error: 'Bad Request', message: expect.stringContaining('UUID') });
    });
  });

  describe('PUT /v1/organization/:organization/security/:security', () => {
    it('replaces the fields, logging a class update and an authorized-shares adjustment', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const created = (await owner.agent.post(path(org.id)).send(FULL).expect(201)).body;
      const replacement = {
        ...FULL,
        name: 'Series A-1 Preferred',
        idPrefix: 'PA1-',
        authorizedShares: '6000000',
        originalIssuePrice: '1.5',
        seniority: 3,
      };
      const res = await owner.agent.put(path(org.id, created.id)).send(replacement).expect(200);
      expect(res.body).toEqual({
        ...replacement,
        id: created.id,
        organization: org.id,
        issuedShares: '0',
        reservedShares: '0',
        created: created.created,
        updated: expect.stringMatching(TIMESTAMP),
      });
      expect((await owner.agent.get(path(org.id, created.id)).expect(200)).body).toEqual(res.body);

      const rows = await log(org.id);
      expect(rows.map((r) => r.type)).toEqual([
        'STOCK_CLASS_CREATED',
        'STOCK_CLASS_UPDATED',
        'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
      ]);
      // Only what changed is in the update; the count is an adjustment of its own.
      expect(rows[1]).toEqual({
        type: 'STOCK_CLASS_UPDATED',
        effective_date: today(),
        actor_user_id: owner.user.id,
        payload: {
          securityId: created.id,
          changes: {
            name: 'Series A-1 Preferred',
            idPrefix: 'PA1-',
            originalIssuePrice: '1.5',
            seniority: 3,
          },
        },
      });
      expect(rows[2]).toEqual({
        type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
        effective_date: today(),
        actor_user_id: owner.user.id,
        payload: {
          securityId: created.id,
          previousSharesAuthorized: '5000000',
          newSharesAuthorized: '6000000',
          reason: null,
        },
      });
    });

    it('is a replacement: omitted optional fields return to their defaults', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const created = (await owner.agent.post(path(org.id)).send(FULL).expect(201)).body;
      const res = await owner.agent
        .put(path(org.id, created.id))
        .send({ name: 'Plain', classType: 'common', idPrefix: 'PL-', authorizedShares: '5000000' })
        .expect(200);
      expect(res.body).toMatchObject({
        name: 'Plain',
        classType: 'common',
        parValue: null,
        originalIssuePrice: null,
        currency: 'USD',
        seniority: 1,
        liquidationPreferenceMultiple: null,
        participating: false,
        participationCapMultiple: null,
        conversionRatio: '1',
        votesPerShare: '1',
        boardApprovalDate: null,
      });
      // The count did not change: no adjustment.
      expect((await log(org.id)).map((r) => r.type)).toEqual([
        'STOCK_CLASS_CREATED',
        'STOCK_CLASS_UPDATED',
      ]);
    });

    it('logs nothing and emits no event when nothing changes', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const created = (await owner.agent.post(path(org.id)).send(FULL).expect(201)).body;
      // Same values in another spelling (numbers, trailing zeros, lower-case currency).
      const res = await owner.agent
        .put(path(org.id, created.id))
        .send({ ...FULL, authorizedShares: 5000000, parValue: '0.000100', currency: 'eur' })
        .expect(200);
      expect(res.body).toEqual(created);
      expect((await log(org.id)).map((r) => r.type)).toEqual(['STOCK_CLASS_CREATED']);
      expect((await events(org.id)).map((e) => e.type)).toEqual(['security.created']);
    });

    it('refuses fewer authorized than issued shares with 400 insufficientShares and changes nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '600',
      });
      const before = await snapshot(owner.agent, org.id);

      const res = await owner.agent
        .put(path(org.id, security.id))
        .send({ name: 'Renamed', classType: 'common', idPrefix: 'CS-', authorizedShares: '599' })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.any(String),
      });
      // The rename in the same request was not kept either.
      expect(await snapshot(owner.agent, org.id)).toEqual(before);

      // Down to exactly the issued shares is allowed: issued ≤ authorized.
      const exact = await owner.agent
        .put(path(org.id, security.id))
        .send({
          name: 'Common Stock',
          classType: 'common',
          idPrefix: 'CS-',
          authorizedShares: '600',
        })
        .expect(200);
      expect(exact.body).toMatchObject({ authorizedShares: '600', issuedShares: '600' });
      // No more can be issued now.
      const over = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({ member: holder.id, security: security.id, quantity: '1', issueDate: '2024-02-01' })
        .expect(400);
      expect(over.body.key).toBe('insufficientShares');
    });

    it('refuses the name or idPrefix of another class (409) and keeps the class', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await createSecurity(owner.agent, org.id, { name: 'Common', idPrefix: 'CS-' });
      const preferred = await createSecurity(owner.agent, org.id, {
        name: 'Preferred',
        classType: 'preferred',
        idPrefix: 'PS-',
      });
      const before = await snapshot(owner.agent, org.id);
      await owner.agent
        .put(path(org.id, preferred.id))
        .send({
          name: 'Common',
          classType: 'preferred',
          idPrefix: 'PS-',
          authorizedShares: '10000000',
        })
        .expect(409);
      await owner.agent
        .put(path(org.id, preferred.id))
        .send({
          name: 'Preferred',
          classType: 'preferred',
          idPrefix: 'CS-',
          authorizedShares: '10000000',
        })
        .expect(409);
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('validates the body like creation (400) and changes nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const before = await snapshot(owner.agent, org.id);
      const good = { name: 'Common', classType: 'common', idPrefix: 'CS-', authorizedShares: '10' };
      const missing = await owner.agent
        .put(path(org.id, security.id))
        .send({ name: 'Common', classType: 'common', idPrefix: 'CS-' })
        .expect(400);
      expect(missing.body).toEqual({
        error: 'Bad Request',
        key: 'invalidFields',
        message: expect.stringContaining('authorizedShares'),
      });
      for (const change of [
        { classType: 'founder' },
        { authorizedShares: '-1' },
        { idPrefix: 'X'.repeat(21) },
        { seniority: 'first' },
        { boardApprovalDate: '2024-13-01' },
      ]) {
        const res = await owner.agent
          .put(path(org.id, security.id))
          .send({ ...good, ...change })
          .expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          message: expect.stringContaining(Object.keys(change)[0]),
        });
      }
      // A corporation's class holds whole shares only.
      const fractional = await owner.agent
        .put(path(org.id, security.id))
        .send({ ...good, authorizedShares: '10.5' })
        .expect(400);
      expect(fractional.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('authorizedShares'),
        field: 'authorizedShares',
      });
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('is 404 for an unknown or deleted class', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const body = { name: 'Common', classType: 'common', idPrefix: 'CS-', authorizedShares: '1' };
      await owner.agent.put(path(org.id, UNKNOWN)).send(body).expect(404).expect(errorBody(404));
      const security = await createSecurity(owner.agent, org.id);
      await owner.agent.delete(path(org.id, security.id)).expect(200);
      await owner.agent
        .put(path(org.id, security.id))
        .send(body)
        .expect(404)
        .expect(errorBody(404));
      expect((await log(org.id)).map((r) => r.type)).toEqual([
        'STOCK_CLASS_CREATED',
        'STOCK_CLASS_DELETED',
      ]);
    });
  });

  describe('POST /v1/organization/:organization/security/:security/shares', () => {
    it('authorizes more shares as an adjustment transaction and answers the class', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const res = await owner.agent
        .post(`${path(org.id, security.id)}/shares`)
        .send({ quantity: '500', date: '2024-03-01', reason: ' Board consent of March ' })
        .expect(201);
      const current = (await owner.agent.get(path(org.id, security.id)).expect(200)).body;
      expect(res.body).toEqual(current);
      expect(res.body).toMatchObject({
        id: security.id,
        organization: org.id,
        authorizedShares: '1500',
        issuedShares: '0',
      });
      const rows = await log(org.id);
      expect(rows).toHaveLength(2);
      expect(rows[1]).toEqual({
        type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
        effective_date: '2024-03-01',
        actor_user_id: owner.user.id,
        payload: {
          securityId: security.id,
          previousSharesAuthorized: '1000',
          newSharesAuthorized: '1500',
          reason: 'Board consent of March',
        },
      });

      // Without a date it takes effect today; a JSON number is taken exactly.
      const again = await owner.agent
        .post(`${path(org.id, security.id)}/shares`)
        .send({ quantity: 250 })
        .expect(201);
      expect(again.body.authorizedShares).toBe('1750');
      const last = (await log(org.id))[2];
      expect(last).toMatchObject({
        effective_date: today(),
        payload: { previousSharesAuthorized: '1500', newSharesAuthorized: '1750', reason: null },
      });
    });

    it('makes room for issuances that did not fit before', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '100' });
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '100',
      });
      const issueMore = () =>
        owner.agent.post(`/v1/organization/${org.id}/shareholding`).send({
          member: holder.id,
          security: security.id,
          quantity: '10',
          issueDate: '2024-02-01',
        });
      expect((await issueMore().expect(400)).body.key).toBe('insufficientShares');
      await owner.agent
        .post(`${path(org.id, security.id)}/shares`)
        .send({ quantity: '10' })
        .expect(201);
      await issueMore().expect(201);
      expect((await owner.agent.get(path(org.id, security.id)).expect(200)).body).toMatchObject({
        authorizedShares: '110',
        issuedShares: '110',
      });
    });

    it.each([
      ['quantity missing', {}, 'quantity', true],
      ['quantity zero', { quantity: '0' }, 'quantity', false],
      ['quantity negative', { quantity: '-10' }, 'quantity', false],
      ['quantity negative number', { quantity: -10 }, 'quantity', false],
      ['quantity not decimal', { quantity: 'ten' }, 'quantity', false],
      ['quantity fractional for a corporation', { quantity: '0.5' }, 'quantity', false],
      ['date impossible', { quantity: '10', date: '2024-02-30' }, 'date', false],
      ['reason too long', { quantity: '10', reason: 'r'.repeat(501) }, 'reason', false],
      ['reason not text', { quantity: '10', reason: 42 }, 'reason', false],
    ])('refuses %s with 400 and changes nothing', async (_case, body, field, missing) => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const before = await snapshot(owner.agent, org.id);
      const res = await owner.agent
        .post(`${path(org.id, security.id)}/shares`)
        .send(body)
        .expect(400);
      expect(res.body).toMatchObject({
        error: 'Bad Request',
        ...(missing ? { key: 'invalidFields' } : {}),
        message: expect.stringContaining(field),
      });
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('refuses (400, not a database error) a total the ledger cannot hold', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const nines = '9'.repeat(28);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: nines });
      const before = await snapshot(owner.agent, org.id);
      const res = await owner.agent
        .post(`${path(org.id, security.id)}/shares`)
        .send({ quantity: '1' })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('authorizedShares'),
        field: 'quantity',
      });
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('takes fractional units for an LLC', async () => {
      const { owner } = await ownerWithOrg(t);
      const llc = await owner.agent
        .post('/v1/organization')
        .send({ name: 'Units LLC', type: 'llc' })
        .expect(201);
      const security = await createSecurity(owner.agent, llc.body.id, {
        authorizedShares: '10.25',
      });
      const res = await owner.agent
        .post(`${path(llc.body.id, security.id)}/shares`)
        .send({ quantity: '0.75' })
        .expect(201);
      expect(res.body.authorizedShares).toBe('11');
    });

    it('is 404 for an unknown or deleted class', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await owner.agent
        .post(`${path(org.id, UNKNOWN)}/shares`)
        .send({ quantity: '1' })
        .expect(404)
        .expect(errorBody(404));
      const security = await createSecurity(owner.agent, org.id);
      await owner.agent.delete(path(org.id, security.id)).expect(200);
      await owner.agent
        .post(`${path(org.id, security.id)}/shares`)
        .send({ quantity: '1' })
        .expect(404)
        .expect(errorBody(404));
    });
  });

  describe('DELETE /v1/organization/:organization/security/:security', () => {
    it('deletes a class without issued shares: 200 `{}`, then 404 everywhere; the log keeps its history', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const res = await owner.agent.delete(path(org.id, security.id)).expect(200);
      expect(res.body).toEqual({});
      await owner.agent.get(path(org.id, security.id)).expect(404).expect(errorBody(404));
      expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual([]);
      await owner.agent.delete(path(org.id, security.id)).expect(404).expect(errorBody(404));
      expect(await log(org.id)).toEqual([
        expect.objectContaining({ type: 'STOCK_CLASS_CREATED' }),
        {
          type: 'STOCK_CLASS_DELETED',
          effective_date: today(),
          actor_user_id: owner.user.id,
          payload: { securityId: security.id },
        },
      ]);
      // Nothing can be issued in a deleted class.
      const holder = await createHolder(owner.agent, org.id);
      await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({ member: holder.id, security: security.id, quantity: '1', issueDate: '2024-02-01' })
        .expect(404);
    });

    it('refuses a class with issued shares (409) and keeps it; once they are voided it can go', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const holder = await createHolder(owner.agent, org.id);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '10',
      });
      const before = await snapshot(owner.agent, org.id);
      const res = await owner.agent.delete(path(org.id, security.id)).expect(409);
      expect(res.body).toEqual({ error: 'Conflict', message: expect.any(String) });
      expect(await snapshot(owner.agent, org.id)).toEqual(before);

      await owner.agent.delete(`/v1/shareholding/${holding.id}`).expect(200);
      expect((await owner.agent.get(path(org.id, security.id)).expect(200)).body.issuedShares).toBe(
        '0',
      );
      await owner.agent.delete(path(org.id, security.id)).expect(200);
      await owner.agent.get(path(org.id, security.id)).expect(404);
    });
  });

  describe('the log', () => {
    it('replays to exactly the current tables after a history of class changes', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const common = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const preferred = (await owner.agent.post(path(org.id)).send(FULL).expect(201)).body;
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, { member: holder.id, security: common.id, quantity: '400' });
      await owner.agent
        .put(path(org.id, common.id))
        .send({ name: 'Common', classType: 'common', idPrefix: 'C-', authorizedShares: '450' })
        .expect(200);
      await owner.agent
        .post(`${path(org.id, common.id)}/shares`)
        .send({ quantity: '50' })
        .expect(201);
      await owner.agent
        .put(path(org.id, preferred.id))
        // parValue omitted: a replacement clears it.
        .send({ ...FULL, seniority: 5, parValue: undefined })
        .expect(200);
      await owner.agent.delete(path(org.id, preferred.id)).expect(200);
      await createSecurity(owner.agent, org.id, { name: FULL.name, idPrefix: FULL.idPrefix });

      const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org.id);
      expect(verification).toEqual({
        organizationId: org.id,
        transactions: (await log(org.id)).length,
        differences: [],
        moveDifferences: [],
      });
      expect(verification.transactions).toBe(9);
    });

    it('loses no concurrent addition of authorized shares', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          owner.agent.post(`${path(org.id, security.id)}/shares`).send({ quantity: String(i + 1) }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      const after = (await owner.agent.get(path(org.id, security.id)).expect(200)).body;
      expect(after.authorizedShares).toBe('1055');
      // Each adjustment names the count it started from: they form one chain.
      const chain = (await log(org.id))
        .filter((r) => r.type === 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT')
        .map((r) => [r.payload.previousSharesAuthorized, r.payload.newSharesAuthorized]);
      expect(chain).toHaveLength(10);
      chain.forEach(([, next], i) => {
        if (i + 1 < chain.length) expect(chain[i + 1][0]).toBe(next);
      });
      expect(chain[0][0]).toBe('1000');
      expect(chain[9][1]).toBe('1055');
    });

    it('keeps issued ≤ authorized when a reduction races with issuances', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '100' });
      const holder = await createHolder(owner.agent, org.id);
      const issuances = Array.from({ length: 5 }, () =>
        owner.agent.post(`/v1/organization/${org.id}/shareholding`).send({
          member: holder.id,
          security: security.id,
          quantity: '20',
          issueDate: '2024-01-15',
        }),
      );
      const reduction = owner.agent.put(path(org.id, security.id)).send({
        name: 'Common Stock',
        classType: 'common',
        idPrefix: 'CS-',
        authorizedShares: '50',
      });
      const [reduced, ...issued] = await Promise.all([reduction, ...issuances]);
      for (const r of [reduced, ...issued]) {
        expect([200, 201, 400]).toContain(r.status);
        if (r.status === 400) expect(r.body.key).toBe('insufficientShares');
      }
      const after = (await owner.agent.get(path(org.id, security.id)).expect(200)).body;
      const granted = issued.filter((r) => r.status === 201).length;
      expect(after.issuedShares).toBe(String(granted * 20));
      expect(after.authorizedShares).toBe(reduced.status === 200 ? '50' : '100');
      expect(Number(after.issuedShares)).toBeLessThanOrEqual(Number(after.authorizedShares));
      const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org.id);
      expect(verification.differences).toEqual([]);
      expect(verification.replayError).toBeUndefined();
    });
  });

  describe('access', () => {
    async function fixture() {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      return { owner, org, security };
    }

    const body = { name: 'Common', classType: 'common', idPrefix: 'CS-', authorizedShares: '5' };
    const writes = (org: string, id: string) =>
      [
        (a: Agent) => a.post(path(org)).send({ ...body, name: 'New', idPrefix: 'NW-' }),
        (a: Agent) => a.put(path(org, id)).send({ ...body, name: 'Changed' }),
        (a: Agent) => a.post(`${path(org, id)}/shares`).send({ quantity: '5' }),
        (a: Agent) => a.delete(path(org, id)),
      ] as const;
    const reads = (org: string, id: string) =>
      [(a: Agent) => a.get(path(org)), (a: Agent) => a.get(path(org, id))] as const;

    it('401 without a session on every route', async () => {
      const { org, security } = await fixture();
      const anonymous = t.http as unknown as Agent;
      for (const call of [...reads(org.id, security.id), ...writes(org.id, security.id)]) {
        await call(anonymous).expect(401).expect(errorBody(401));
      }
    });

    it('Viewer and Shareholder read (canViewOrganization) but may not write (canEditCapTable)', async () => {
      const { owner, org, security } = await fixture();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const expected = (await owner.agent.get(path(org.id, security.id)).expect(200)).body;
      const before = await snapshot(owner.agent, org.id);
      for (const who of [viewer, shareholder]) {
        expect((await who.agent.get(path(org.id)).expect(200)).body).toEqual([expected]);
        expect((await who.agent.get(path(org.id, security.id)).expect(200)).body).toEqual(expected);
        for (const call of writes(org.id, security.id)) {
          const res = await call(who.agent).expect(403);
          expect(res.body).toEqual(ERROR_BODIES[403]);
        }
      }
      expect(await snapshot(owner.agent, org.id)).toEqual(before);
    });

    it('Editor and Admin may write', async () => {
      const { owner, org } = await fixture();
      for (const role of ['Editor', 'Admin']) {
        const who = await memberAgent(t, owner.agent, org.id, role);
        const created = await who.agent
          .post(path(org.id))
          .send({ ...body, name: role, idPrefix: `${role}-` })
          .expect(201);
        await who.agent
          .put(path(org.id, created.body.id))
          .send({ ...body, name: `${role} 2`, idPrefix: `${role}-` })
          .expect(200);
        await who.agent
          .post(`${path(org.id, created.body.id)}/shares`)
          .send({ quantity: '1' })
          .expect(201);
        await who.agent.delete(path(org.id, created.body.id)).expect(200);
        const actors = (await log(org.id)).slice(-4).map((r) => r.actor_user_id);
        expect(actors).toEqual([who.user.id, who.user.id, who.user.id, who.user.id]);
      }
    });

    it('another organization’s class is 404 under one’s own organization and 403 under its own', async () => {
      const a = await fixture();
      const b = await ownerWithOrg(t, 'Other Co');
      const before = await snapshot(a.owner.agent, a.org.id);
      // Under B's path, where B's owner has every permission: the record is not there.
      const [, getOne] = reads(b.org.id, a.security.id);
      const [, put, addShares, remove] = writes(b.org.id, a.security.id);
      for (const call of [getOne, put, addShares, remove]) {
        const res = await call(b.owner.agent);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(ERROR_BODIES[404]);
      }
      // Under A's path, B's owner is no member: refused, never the record.
      for (const call of [...reads(a.org.id, a.security.id), ...writes(a.org.id, a.security.id)]) {
        const res = await call(b.owner.agent);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(ERROR_BODIES[403]);
      }
      expect(await snapshot(a.owner.agent, a.org.id)).toEqual(before);
      // B's list does not show A's class.
      expect((await b.owner.agent.get(path(b.org.id)).expect(200)).body).toEqual([]);
    });

    it('404 for an organization that does not exist', async () => {
      const { owner } = await ownerWithOrg(t);
      await owner.agent.get(path(UNKNOWN)).expect(404).expect(errorBody(404));
      await owner.agent.post(path(UNKNOWN)).send(body).expect(404).expect(errorBody(404));
    });
  });

  describe('events', () => {
    it('writes security.created, .updated and .deleted to the outbox and the activity log', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const created = (
        await owner.agent
          .post(path(org.id))
          .send({ name: 'Common', classType: 'common', idPrefix: 'CS-', authorizedShares: '1000' })
          .expect(201)
      ).body;
      const renamed = (
        await owner.agent
          .put(path(org.id, created.id))
          .send({
            name: 'Class A Common',
            classType: 'common',
            idPrefix: 'CA-',
            authorizedShares: '1200',
          })
          .expect(200)
      ).body;
      const more = (
        await owner.agent
          .post(`${path(org.id, created.id)}/shares`)
          .send({ quantity: '300' })
          .expect(201)
      ).body;
      await owner.agent.delete(path(org.id, created.id)).expect(200);

      const rows = await events(org.id);
      expect(rows).toEqual([
        {
          type: 'security.created',
          actor_user_id: owner.user.id,
          description: 'class Common: created with 1000 authorized shares',
          data: { object: created, previous_attributes: {} },
        },
        {
          type: 'security.updated',
          actor_user_id: owner.user.id,
          description:
            'class Common: name Common -> Class A Common; idPrefix CS- -> CA-; authorizedShares 1000 -> 1200',
          data: {
            object: renamed,
            previous_attributes: { name: 'Common', idPrefix: 'CS-', authorizedShares: '1000' },
          },
        },
        {
          type: 'security.updated',
          actor_user_id: owner.user.id,
          description: 'class Class A Common: authorizedShares 1200 -> 1500',
          data: { object: more, previous_attributes: { authorizedShares: '1200' } },
        },
        {
          type: 'security.deleted',
          actor_user_id: owner.user.id,
          description: 'class Class A Common: deleted',
          data: {
            object: expect.objectContaining({ id: created.id, name: 'Class A Common' }),
            previous_attributes: {},
          },
        },
      ]);

      const entries = await eventually(async (): Promise<ActionBody[]> => {
        const res = await owner.agent
          .get(`/v1/organization/${org.id}/action`)
          .query({ type: 'security.' })
          .expect(200);
        if (res.body.length < 4) throw new Error(`not yet: ${res.body.length} entries`);
        return res.body;
      });
      expect(entries.map((e) => [e.type, e.description, e.userId])).toEqual(
        expect.arrayContaining([
          ['security.created', 'class Common: created with 1000 authorized shares', owner.user.id],
          [
            'security.updated',
            'class Common: name Common -> Class A Common; idPrefix CS- -> CA-; authorizedShares 1000 -> 1200',
            owner.user.id,
          ],
          [
            'security.updated',
            'class Class A Common: authorizedShares 1200 -> 1500',
            owner.user.id,
          ],
          ['security.deleted', 'class Class A Common: deleted', owner.user.id],
        ]),
      );
      expect(entries).toHaveLength(4);
    });

    it('writes no event for a refused change', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '10' });
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '10',
      });
      await owner.agent
        .put(path(org.id, security.id))
        .send({ name: 'X', classType: 'common', idPrefix: 'CS-', authorizedShares: '5' })
        .expect(400);
      await owner.agent.delete(path(org.id, security.id)).expect(409);
      expect((await events(org.id)).map((e) => e.type)).toEqual(['security.created']);
    });
  });
});
