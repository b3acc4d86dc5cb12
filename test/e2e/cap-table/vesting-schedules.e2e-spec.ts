import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { ALLOCATION_TYPES, toDecimalString } from '../../../libs/cap-math';
import { vestedQuantity } from '../../../src/cap-table/ledger/incentives/holding-figures';
import { LedgerReader } from '../../../src/cap-table/ledger/ledger-reader';
import { LedgerWriter } from '../../../src/cap-table/ledger/ledger-writer';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity } from '../../support/cap-table';
import { ERROR_BODIES, errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { joinByInvitation, memberAgent } from '../../support/orgs';
import { loggedInAgent, LoggedInUser } from '../../support/users';
import { ownerWithOrg } from '../../support/world';

const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const today = () => new Date().toISOString().slice(0, 10);

/** The standard grant: four years monthly, one-year cliff. */
const STANDARD = {
  name: 'Four years, one-year cliff',
  totalPeriods: 48,
  periodLength: 1,
  periodType: 'months',
  cliffPeriods: 12,
  allocationType: 'CUMULATIVE_ROUNDING',
};

const TERMS = [
  'totalPeriods',
  'periodLength',
  'periodType',
  'cliffPeriods',
  'allocationType',
  'vestingDayOfMonth',
  'acceleration',
] as const;

interface ScheduleBody {
  id: string;
  organization: string;
  plan: string | null;
  name: string;
  version: number;
  previousVersion: string | null;
  supersededBy: string | null;
  created: string;
  [term: string]: unknown;
}

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

interface ProjectedEvent {
  date: string;
  amount: string;
  cumulative: string;
}

describe('vesting schedules and the vesting projection', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get<DataSource>(DataSource);
  });
  afterAll(() => t.close());

  const log = (org: string): Promise<LogRow[]> =>
    db.query(
      `SELECT type, effective_date::text AS effective_date, actor_user_id, payload
       FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
      [org],
    );
  const events = (org: string): Promise<EventRow[]> =>
    db.query(
      `SELECT type, actor_user_id, description, data FROM outbox_event
       WHERE organization_id = $1 AND type LIKE 'vesting_schedule.%' ORDER BY sequence`,
      [org],
    );
  /** Every schedule row and log entry: a refusal must leave both as they were. */
  const snapshot = async (org: string) => ({
    rows: await db.query(
      `SELECT * FROM vesting_schedule WHERE organization_id = $1 ORDER BY created, id`,
      [org],
    ),
    log: await log(org),
    events: await events(org),
  });

  async function createSchedule(
    agent: Agent,
    org: string,
    fields: Record<string, unknown> = {},
  ): Promise<ScheduleBody> {
    const res = await agent
      .post('/v1/vestingSchedule')
      .send({ organization: org, ...STANDARD, ...fields });
    if (res.status !== 201) throw new Error(`schedule: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /**
   * A plan with one pool, written through the ledger itself (the plan routes are another
   * module's): a class of 1,000,000 shares, 100,000 reserved by the plan and its pool.
   */
  async function makePlan(owner: LoggedInUser, org: string, name = 'Equity Plan') {
    const security = await createSecurity(owner.agent, org, {
      name: `${name} Common`,
      idPrefix: `${name.replace(/\W/g, '').slice(0, 8)}-`,
      authorizedShares: '1000000',
    });
    const plan = randomUUID();
    const pool = randomUUID();
    await t
      .get<LedgerWriter>(LedgerWriter)
      .change(org, owner.user.id, { securities: [security.id] }, async (c) => {
        await c.apply('STOCK_PLAN_CREATED', '2024-01-01', {
          plan: {
            id: plan,
            name,
            securityId: security.id,
            sharesReserved: '100000',
            boardApprovalDate: null,
            stockholderApprovalDate: null,
            defaultCancellationBehavior: 'return_to_pool',
          },
        });
        await c.apply('STOCK_PLAN_POOL_CREATED', '2024-01-01', {
          pool: { id: pool, planId: plan, name: 'Employees', sharesReserved: '100000' },
        });
      });
    return { plan, pool, security: security.id };
  }

  /** An option grant of 4800 shares made with `schedule`, through the ledger (vesting from 2024-01-15). */
  async function grant(
    owner: LoggedInUser,
    org: string,
    p: { plan: string; pool: string; security: string },
    schedule: string,
  ) {
    const member = await createHolder(owner.agent, org, 'Grantee');
    const id = randomUUID();
    await t
      .get<LedgerWriter>(LedgerWriter)
      .change(org, owner.user.id, { plans: [p.plan], schedules: [schedule] }, async (c) => {
        await c.apply('TX_EQUITY_COMPENSATION_ISSUANCE', '2024-01-15', {
          holding: {
            id,
            memberId: member.id,
            type: 'option_nso',
            planId: p.plan,
            poolId: p.pool,
            securityId: p.security,
            vestingScheduleId: schedule,
            terms: {
              quantity: '4800',
              exercisePrice: '0.5',
              grantDate: '2024-01-15',
              expirationDate: '2034-01-14',
              vestingStartDate: '2024-01-15',
              earlyExercisable: false,
            },
          },
        });
      });
    return id;
  }

  /** Vested quantity of a grant on `date`, from the stored state (as exercising computes it). */
  async function vested(org: string, holding: string, date: string) {
    const state = await t.get<LedgerReader>(LedgerReader).current(org);
    return toDecimalString(vestedQuantity(state, state.holdings.get(holding)!, date));
  }

  const project = (agent: Agent, body: Record<string, unknown>) =>
    agent.post('/v1/schedule/project').send(body);

  describe('POST /v1/vestingSchedule', () => {
    it('creates version 1 with every field, answers its exact shape, logs it and records the event', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const body = {
        organization: org.id,
        plan: p.plan,
        name: 'Quarterly, with acceleration',
        totalPeriods: 16,
        periodLength: 3,
        periodType: 'months',
        cliffPeriods: 4,
        allocationType: 'FRONT_LOADED',
        vestingDayOfMonth: '15',
        acceleration: { trigger: 'double', percent: '50.0' },
      };
      const res = await owner.agent.post('/v1/vestingSchedule').send(body).expect(201);
      expect(res.body).toEqual({
        ...body,
        id: expect.stringMatching(UUID),
        acceleration: { trigger: 'double', percent: '50' },
        version: 1,
        previousVersion: null,
        supersededBy: null,
        created: expect.stringMatching(TIMESTAMP),
      });
      expect(Object.keys(res.body).sort()).toEqual(
        [
          'id',
          'organization',
          'plan',
          'name',
          'version',
          'previousVersion',
          'supersededBy',
          ...TERMS,
          'created',
        ].sort(),
      );
      expect(
        (await owner.agent.get(`/v1/vestingSchedule/${res.body.id}`).expect(200)).body,
      ).toEqual(res.body);

      const rows = (await log(org.id)).filter((r) => r.type === 'VESTING_TERMS_CREATED');
      expect(rows).toEqual([
        {
          type: 'VESTING_TERMS_CREATED',
          effective_date: today(),
          actor_user_id: owner.user.id,
          payload: {
            vestingSchedule: {
              id: res.body.id,
              name: body.name,
              planId: p.plan,
              version: 1,
              previousVersionId: null,
              totalPeriods: 16,
              periodLength: 3,
              periodType: 'months',
              cliffPeriods: 4,
              allocationType: 'FRONT_LOADED',
              vestingDayOfMonth: '15',
              acceleration: { trigger: 'double', percent: '50' },
            },
          },
        },
      ]);
      expect(await events(org.id)).toEqual([
        {
          type: 'vesting_schedule.created',
          actor_user_id: owner.user.id,
          description:
            'vesting schedule Quarterly, with acceleration: created (16 × 3 months, 4-period cliff, FRONT_LOADED, double-trigger acceleration 50%)',
          data: { object: res.body, previous_attributes: {} },
        },
      ]);
    });

    it('takes the standard schedule with no plan, day of month or acceleration (nulls)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const created = await createSchedule(owner.agent, org.id);
      expect(created).toEqual({
        ...STANDARD,
        id: expect.stringMatching(UUID),
        organization: org.id,
        plan: null,
        vestingDayOfMonth: null,
        acceleration: null,
        version: 1,
        previousVersion: null,
        supersededBy: null,
        created: expect.stringMatching(TIMESTAMP),
      });
      // Explicit nulls are the same as leaving the fields out.
      const nulls = await createSchedule(owner.agent, org.id, {
        plan: null,
        vestingDayOfMonth: null,
        acceleration: null,
      });
      expect(nulls).toMatchObject({ plan: null, vestingDayOfMonth: null, acceleration: null });
    });

    it.each(ALLOCATION_TYPES.map((a) => [a]))(
      'accepts the OCF allocation type %s',
      async (type) => {
        const { owner, org } = await ownerWithOrg(t);
        const created = await createSchedule(owner.agent, org.id, { allocationType: type });
        expect(created.allocationType).toBe(type);
      },
    );

    it.each([
      ['a cliff longer than the schedule', { cliffPeriods: 49 }, 'cliffPeriods'],
      ['no periods', { totalPeriods: 0 }, undefined],
      ['fractional periods', { totalPeriods: 4.5 }, undefined],
      ['periods as text', { totalPeriods: '48' }, undefined],
      ['a zero period length', { periodLength: 0 }, undefined],
      ['a negative cliff', { cliffPeriods: -1 }, undefined],
      ['weeks', { periodType: 'weeks' }, undefined],
      ['an allocation type OCF does not have', { allocationType: 'ROUND_HALF_EVEN' }, undefined],
      ['a lower-case allocation type', { allocationType: 'fractional' }, undefined],
      ['day 32 of the month', { vestingDayOfMonth: '32' }, undefined],
      ['day 5 without its leading zero', { vestingDayOfMonth: '5' }, undefined],
      [
        'a day of the month for daily periods',
        { periodType: 'days', vestingDayOfMonth: '15' },
        'vestingDayOfMonth',
      ],
      [
        'acceleration over 100%',
        { acceleration: { trigger: 'single', percent: '150' } },
        'acceleration.percent',
      ],
      [
        'a negative acceleration',
        { acceleration: { trigger: 'single', percent: '-5' } },
        undefined,
      ],
      ['a triple trigger', { acceleration: { trigger: 'triple', percent: '100' } }, undefined],
      ['acceleration without percent', { acceleration: { trigger: 'single' } }, undefined],
      ['an empty name', { name: '  ' }, undefined],
      ['a name too long', { name: 'x'.repeat(201) }, undefined],
      ['a plan that is no id', { plan: 'plan-1' }, undefined],
    ])('refuses %s with 400 and creates nothing', async (_name, change, field) => {
      const { owner, org } = await ownerWithOrg(t);
      const before = await snapshot(org.id);
      const res = await owner.agent
        .post('/v1/vestingSchedule')
        .send({ organization: org.id, ...STANDARD, ...change })
        .expect(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', message: expect.any(String) });
      if (field) {
        expect(res.body.field).toBe(field);
        expect(res.body.message).toContain(field.split('.').pop());
      }
      expect(await snapshot(org.id)).toEqual(before);
    });

    it.each([['name'], ['totalPeriods'], ['periodType'], ['allocationType'], ['organization']])(
      'refuses a body without %s (400 invalidFields)',
      async (missing) => {
        const { owner, org } = await ownerWithOrg(t);
        const body: Record<string, unknown> = { organization: org.id, ...STANDARD };
        delete body[missing];
        const res = await owner.agent.post('/v1/vestingSchedule').send(body).expect(400);
        expect(res.body).toMatchObject({ error: 'Bad Request', key: 'invalidFields' });
        expect(res.body.message).toContain(missing);
        expect(await log(org.id)).toEqual([]);
      },
    );

    it('refuses a plan of another organization (404) and a deleted or unknown one', async () => {
      const a = await ownerWithOrg(t);
      const b = await ownerWithOrg(t, 'Other Co');
      const theirs = await makePlan(b.owner, b.org.id);
      const before = await snapshot(a.org.id);
      for (const plan of [theirs.plan, UNKNOWN]) {
        const res = await a.owner.agent
          .post('/v1/vestingSchedule')
          .send({ organization: a.org.id, plan, ...STANDARD })
          .expect(404);
        expect(res.body).toMatchObject({ error: 'Not Found' });
      }
      // B's owner is no member of A: refused; with B's plan it is not A's plan first (404).
      await b.owner.agent
        .post('/v1/vestingSchedule')
        .send({ organization: a.org.id, ...STANDARD })
        .expect(403)
        .expect(errorBody(403));
      await b.owner.agent
        .post('/v1/vestingSchedule')
        .send({ organization: a.org.id, plan: theirs.plan, ...STANDARD })
        .expect(404);
      expect(await snapshot(a.org.id)).toEqual(before);
    });
  });

  describe('PUT /v1/vestingSchedule/:vestingScheduleOld', () => {
    it('stores a new version under a new id; the old one is superseded and stays readable', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v1 = await createSchedule(owner.agent, org.id);
      const changed = {
        organization: org.id,
        ...STANDARD,
        name: 'Three years, six-month cliff',
        totalPeriods: 36,
        cliffPeriods: 6,
        vestingDayOfMonth: '01',
        acceleration: { trigger: 'single', percent: '100' },
      };
      const res = await owner.agent.put(`/v1/vestingSchedule/${v1.id}`).send(changed).expect(200);
      const v2 = res.body as ScheduleBody;
      expect(v2).toEqual({
        ...changed,
        id: expect.stringMatching(UUID),
        plan: null,
        version: 2,
        previousVersion: v1.id,
        supersededBy: null,
        created: expect.stringMatching(TIMESTAMP),
      });
      expect(v2.id).not.toBe(v1.id);
      // The old version is unchanged but for supersededBy.
      const old = (await owner.agent.get(`/v1/vestingSchedule/${v1.id}`).expect(200)).body;
      expect(old).toEqual({ ...v1, supersededBy: v2.id });
      expect((await owner.agent.get(`/v1/vestingSchedule/${v2.id}`).expect(200)).body).toEqual(v2);

      // Lists: the current version by default, every version with versions=all, oldest first.
      const list = (q: string) =>
        owner.agent.get(`/v1/vestingSchedule?organization=${org.id}${q}`).expect(200);
      expect((await list('')).body).toEqual([v2]);
      expect((await list('&versions=current')).body).toEqual([v2]);
      expect((await list('&versions=all')).body).toEqual([{ ...v1, supersededBy: v2.id }, v2]);

      // One more transaction of the log, naming the version it replaces.
      const rows = (await log(org.id)).filter((r) => r.type === 'VESTING_TERMS_CREATED');
      expect(rows).toHaveLength(2);
      expect(rows[1]).toMatchObject({
        effective_date: today(),
        actor_user_id: owner.user.id,
        payload: {
          vestingSchedule: {
            id: v2.id,
            version: 2,
            previousVersionId: v1.id,
            totalPeriods: 36,
            cliffPeriods: 6,
          },
        },
      });

      const [, updated] = await events(org.id);
      expect(updated).toEqual({
        type: 'vesting_schedule.updated',
        actor_user_id: owner.user.id,
        description:
          'vesting schedule Three years, six-month cliff: version 2 replaces version 1 (name Four years, one-year cliff -> Three years, six-month cliff; totalPeriods 48 -> 36; cliffPeriods 12 -> 6; vestingDayOfMonth none -> 01; acceleration none -> single-trigger 100%)',
        data: {
          object: v2,
          previous_attributes: {
            id: v1.id,
            version: 1,
            previousVersion: null,
            name: STANDARD.name,
            totalPeriods: 48,
            cliffPeriods: 12,
            vestingDayOfMonth: null,
            acceleration: null,
          },
        },
      });
    });

    it('refuses to edit a version that was already superseded (409) and changes nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v1 = await createSchedule(owner.agent, org.id);
      const body = { organization: org.id, ...STANDARD, totalPeriods: 24 };
      const v2 = (await owner.agent.put(`/v1/vestingSchedule/${v1.id}`).send(body).expect(200))
        .body;
      const before = await snapshot(org.id);
      const res = await owner.agent.put(`/v1/vestingSchedule/${v1.id}`).send(body).expect(409);
      expect(res.body).toEqual({
        error: 'Conflict',
        message: expect.stringContaining('not the latest version'),
      });
      expect(await snapshot(org.id)).toEqual(before);
      // The latest version goes on: version 3.
      const v3 = (await owner.agent.put(`/v1/vestingSchedule/${v2.id}`).send(body).expect(200))
        .body;
      expect(v3).toMatchObject({ version: 3, previousVersion: v2.id, supersededBy: null });
    });

    it('loses no version when two PUTs of the same version race: one wins, the other is 409', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v1 = await createSchedule(owner.agent, org.id);
      const results = await Promise.all(
        [24, 36].map((n) =>
          owner.agent
            .put(`/v1/vestingSchedule/${v1.id}`)
            .send({ organization: org.id, ...STANDARD, totalPeriods: n }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const all = (
        await owner.agent.get(`/v1/vestingSchedule?organization=${org.id}&versions=all`).expect(200)
      ).body;
      expect(all).toHaveLength(2);
    });

    it('moves a schedule to a plan and back to the organization with the body’s plan', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const v1 = await createSchedule(owner.agent, org.id);
      const v2 = (
        await owner.agent
          .put(`/v1/vestingSchedule/${v1.id}`)
          .send({ organization: org.id, plan: p.plan, ...STANDARD })
          .expect(200)
      ).body;
      expect(v2.plan).toBe(p.plan);
      const v3 = (
        await owner.agent
          .put(`/v1/vestingSchedule/${v2.id}`)
          .send({ organization: org.id, ...STANDARD })
          .expect(200)
      ).body;
      expect(v3.plan).toBeNull();
    });

    it('validates the body as POST does (400, nothing changes)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v1 = await createSchedule(owner.agent, org.id);
      const before = await snapshot(org.id);
      const put = (change: Record<string, unknown>) =>
        owner.agent
          .put(`/v1/vestingSchedule/${v1.id}`)
          .send({ organization: org.id, ...STANDARD, ...change });
      const cliff = await put({ cliffPeriods: 60 }).expect(400);
      expect(cliff.body).toMatchObject({ error: 'Bad Request', field: 'cliffPeriods' });
      await put({ allocationType: 'EVEN' }).expect(400);
      await put({ name: undefined }).expect(400);
      await put({ organization: undefined }).expect(400);
      await owner.agent
        .put('/v1/vestingSchedule/not-a-uuid')
        .send({ organization: org.id, ...STANDARD })
        .expect(400);
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('keeps grants made earlier on the version they were made with, vesting by it', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const v1 = await createSchedule(owner.agent, org.id);
      const holding = await grant(owner, org.id, p, v1.id);
      // Version 2: two years monthly, no cliff.
      const v2 = (
        await owner.agent
          .put(`/v1/vestingSchedule/${v1.id}`)
          .send({ organization: org.id, ...STANDARD, totalPeriods: 24, cliffPeriods: 0 })
          .expect(200)
      ).body;
      const [row] = await db.query('SELECT vesting_schedule_id FROM holding WHERE id = $1', [
        holding,
      ]);
      expect(row.vesting_schedule_id).toBe(v1.id);
      // By v1: nothing before the one-year cliff, 1200 at it, 100 a month after.
      expect(await vested(org.id, holding, '2024-07-15')).toBe('0');
      expect(await vested(org.id, holding, '2025-01-14')).toBe('0');
      expect(await vested(org.id, holding, '2025-01-15')).toBe('1200');
      expect(await vested(org.id, holding, '2025-02-15')).toBe('1300');
      expect(await vested(org.id, holding, '2028-01-15')).toBe('4800');
      // v2 would have vested 1200 by July 2024: the projection of v2 shows the difference.
      const byV2 = await project(owner.agent, {
        quantity: '4800',
        vestingStartDate: '2024-01-15',
        vestingSchedule: v2.id,
      }).expect(200);
      expect(byV2.body.events[5]).toEqual({
        date: '2024-07-15',
        amount: '200',
        cumulative: '1200',
      });
      // The version a grant uses cannot be deleted, even when superseded.
      await owner.agent.delete(`/v1/plan/${p.plan}/vestingSchedule/${v1.id}`).expect(409);
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('PUT and the grants of the holding routes', () => {
    /** YYYY-MM-DD `months` months before today (UTC), on a day every month has. */
    const monthsAgo = (months: number) => {
      const d = new Date();
      const at = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1));
      return at.toISOString().slice(0, 10);
    };

    it('a grant made through POST /v1/holding with v1 still shows v1 and vests by it after the PUT', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000000' });
      const plan = (
        await owner.agent
          .post(`/v1/organization/${org.id}/plan`)
          .send({
            name: 'Equity Plan',
            security: security.id,
            sharesReserved: '100000',
            pools: [{ name: 'Employees', sharesReserved: '100000' }],
          })
          .expect(201)
      ).body;
      const member = await createHolder(owner.agent, org.id, 'Grantee');
      const v1 = await createSchedule(owner.agent, org.id, { plan: plan.id });
      // Started six months ago: nothing vested by v1 (one-year cliff) today.
      const start = monthsAgo(6);
      const granted = (
        await owner.agent
          .post('/v1/holding')
          .send({
            organization: org.id,
            member: member.id,
            type: 'option_iso',
            plan: plan.id,
            pool: plan.pools[0].id,
            quantity: '4800',
            exercisePrice: '0.5',
            grantDate: start,
            expirationDate: '2099-01-01',
            vestingSchedule: v1.id,
            vestingStartDate: start,
            earlyExercisable: false,
          })
          .expect(201)
      ).body;
      expect(granted).toMatchObject({ vestingSchedule: v1.id, vested: '0' });
      // v2: two years monthly, no cliff: it would have vested 1200 by now.
      const v2 = (
        await owner.agent
          .put(`/v1/vestingSchedule/${v1.id}`)
          .send({
            organization: org.id,
            plan: plan.id,
            ...STANDARD,
            totalPeriods: 24,
            cliffPeriods: 0,
          })
          .expect(200)
      ).body;
      const byV2 = await project(owner.agent, {
        quantity: '4800',
        vestingStartDate: start,
        vestingSchedule: v2.id,
      }).expect(200);
      expect(byV2.body.events[5]).toMatchObject({ cumulative: '1200' });
      const after = (await owner.agent.get(`/v1/holding/${granted.id}`).expect(200)).body;
      expect(after).toMatchObject({ vestingSchedule: v1.id, vested: '0' });
      // v1, used by the grant, cannot be deleted; v2, unused, can.
      await owner.agent.delete(`/v1/plan/${plan.id}/vestingSchedule/${v1.id}`).expect(409);
      await owner.agent.delete(`/v1/plan/${plan.id}/vestingSchedule/${v2.id}`).expect(200);
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('DELETE /v1/plan/:plan/vestingSchedule/:vestingSchedule', () => {
    it('deletes an unused schedule (200 `{}`): 404 afterwards, out of the lists, logged, with its event', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const kept = await createSchedule(owner.agent, org.id, { name: 'Kept' });
      const gone = await createSchedule(owner.agent, org.id, { name: 'Gone', plan: p.plan });
      const res = await owner.agent
        .delete(`/v1/plan/${p.plan}/vestingSchedule/${gone.id}`)
        .expect(200);
      expect(res.body).toEqual({});
      await owner.agent.get(`/v1/vestingSchedule/${gone.id}`).expect(404).expect(errorBody(404));
      expect(
        (await owner.agent.get(`/v1/vestingSchedule?organization=${org.id}&versions=all`)).body,
      ).toEqual([kept]);
      expect((await log(org.id)).at(-1)).toEqual({
        type: 'VESTING_TERMS_DELETED',
        effective_date: today(),
        actor_user_id: owner.user.id,
        payload: { vestingScheduleId: gone.id },
      });
      expect((await events(org.id)).at(-1)).toEqual({
        type: 'vesting_schedule.deleted',
        actor_user_id: owner.user.id,
        description: 'vesting schedule Gone (version 1): deleted',
        data: { object: gone, previous_attributes: {} },
      });
      // Gone is gone: deleting, editing or projecting it again is 404.
      await owner.agent.delete(`/v1/plan/${p.plan}/vestingSchedule/${gone.id}`).expect(404);
      await owner.agent
        .put(`/v1/vestingSchedule/${gone.id}`)
        .send({ organization: org.id, ...STANDARD })
        .expect(404);
      await project(owner.agent, {
        quantity: '10',
        vestingStartDate: '2024-01-01',
        vestingSchedule: gone.id,
      }).expect(404);
    });

    it('refuses (409) while an active grant uses the schedule, and changes nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const used = await createSchedule(owner.agent, org.id, { plan: p.plan });
      await grant(owner, org.id, p, used.id);
      const before = await snapshot(org.id);
      const res = await owner.agent
        .delete(`/v1/plan/${p.plan}/vestingSchedule/${used.id}`)
        .expect(409);
      expect(res.body).toEqual({
        error: 'Conflict',
        message: expect.stringContaining('active option_nso grant'),
      });
      expect(await snapshot(org.id)).toEqual(before);
      await owner.agent.get(`/v1/vestingSchedule/${used.id}`).expect(200);
    });

    it('deletes an organization-wide schedule through any plan, but not another plan’s (404)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const a = await makePlan(owner, org.id, 'Plan A');
      const b = await makePlan(owner, org.id, 'Plan B');
      const ofB = await createSchedule(owner.agent, org.id, { plan: b.plan });
      const wide = await createSchedule(owner.agent, org.id);
      const before = await snapshot(org.id);
      const res = await owner.agent.delete(`/v1/plan/${a.plan}/vestingSchedule/${ofB.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Not Found' });
      expect(await snapshot(org.id)).toEqual(before);
      await owner.agent.delete(`/v1/plan/${a.plan}/vestingSchedule/${wide.id}`).expect(200);
      await owner.agent.delete(`/v1/plan/${b.plan}/vestingSchedule/${ofB.id}`).expect(200);
    });

    it('404 for another organization’s schedule or plan, an unknown one; 400 for a bad id', async () => {
      const a = await ownerWithOrg(t);
      const b = await ownerWithOrg(t, 'Other Co');
      const pa = await makePlan(a.owner, a.org.id);
      const pb = await makePlan(b.owner, b.org.id);
      const theirs = await createSchedule(b.owner.agent, b.org.id);
      const before = await snapshot(b.org.id);
      // A's owner, through A's plan: B's schedule is not there.
      await a.owner.agent.delete(`/v1/plan/${pa.plan}/vestingSchedule/${theirs.id}`).expect(404);
      await a.owner.agent.delete(`/v1/plan/${pa.plan}/vestingSchedule/${UNKNOWN}`).expect(404);
      await a.owner.agent.delete(`/v1/plan/${UNKNOWN}/vestingSchedule/${theirs.id}`).expect(404);
      // Through B's plan, A's owner is no member of B.
      await a.owner.agent
        .delete(`/v1/plan/${pb.plan}/vestingSchedule/${theirs.id}`)
        .expect(403)
        .expect(errorBody(403));
      await a.owner.agent.delete(`/v1/plan/${pa.plan}/vestingSchedule/nope`).expect(400);
      expect(await snapshot(b.org.id)).toEqual(before);
    });
  });

  describe('GET /v1/vestingSchedule and /v1/vestingSchedule/:vestingSchedule', () => {
    it('lists oldest first, filters by plan, pages by limit and offset', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const first = await createSchedule(owner.agent, org.id, { name: 'First' });
      const second = await createSchedule(owner.agent, org.id, { name: 'Second', plan: p.plan });
      const third = await createSchedule(owner.agent, org.id, { name: 'Third' });
      const list = (q: string) => owner.agent.get(`/v1/vestingSchedule?organization=${org.id}${q}`);
      expect((await list('').expect(200)).body).toEqual([first, second, third]);
      expect((await list(`&plan=${p.plan}`).expect(200)).body).toEqual([second]);
      expect((await list('&limit=2').expect(200)).body).toEqual([first, second]);
      expect((await list('&limit=2&offset=2').expect(200)).body).toEqual([third]);
    });

    it('refuses a bad or unknown query parameter (400) and a plan of another organization (404)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const other = await ownerWithOrg(t, 'Other Co');
      const theirs = await makePlan(other.owner, other.org.id);
      await owner.agent.get('/v1/vestingSchedule?organization=').expect(400);
      await owner.agent.get('/v1/vestingSchedule?organization=acme').expect(400);
      const unknown = await owner.agent
        .get(`/v1/vestingSchedule?organization=${org.id}&status=active`)
        .expect(400);
      expect(unknown.body.message).toMatch(/status/);
      await owner.agent.get(`/v1/vestingSchedule?organization=${org.id}&versions=old`).expect(400);
      await owner.agent.get(`/v1/vestingSchedule?organization=${org.id}&plan=x`).expect(400);
      await owner.agent.get(`/v1/vestingSchedule?organization=${org.id}&limit=0`).expect(400);
      await owner.agent
        .get(`/v1/vestingSchedule?organization=${org.id}&plan=${theirs.plan}`)
        .expect(404);
    });

    it('without ?organization=: the schedules of every organization the caller may view, and of no other', async () => {
      // The caller owns A, is a Viewer of B, and also belongs to C (a role without
      // canViewOrganization), D (removed) and E (deleted); F is someone else's entirely.
      const a = await ownerWithOrg(t, 'A Co');
      const caller = a.owner;
      const b = await ownerWithOrg(t, 'B Co');
      const c = await ownerWithOrg(t, 'C Co');
      const d = await ownerWithOrg(t, 'D Co');
      const e = await ownerWithOrg(t, 'E Co');
      const f = await ownerWithOrg(t, 'F Co');
      await joinByInvitation(b.owner.agent, b.org.id, caller.agent, caller.email, 'Viewer');
      const noView = (
        await c.owner.agent
          .post(`/v1/organization/${c.org.id}/role`)
          .send({ name: 'Valuations only', permissions: ['canViewValuation'] })
          .expect(201)
      ).body.id as string;
      await joinByInvitation(c.owner.agent, c.org.id, caller.agent, caller.email, noView);
      const inD = await joinByInvitation(
        d.owner.agent,
        d.org.id,
        caller.agent,
        caller.email,
        'Admin',
      );
      await joinByInvitation(e.owner.agent, e.org.id, caller.agent, caller.email, 'Viewer');

      const pa = await makePlan(a.owner, a.org.id);
      const pf = await makePlan(f.owner, f.org.id);
      const a1 = await createSchedule(a.owner.agent, a.org.id, { name: 'A wide' });
      const b1 = await createSchedule(b.owner.agent, b.org.id, { name: 'B wide' });
      await createSchedule(c.owner.agent, c.org.id, { name: 'C wide' });
      await createSchedule(d.owner.agent, d.org.id, { name: 'D wide' });
      await createSchedule(e.owner.agent, e.org.id, { name: 'E wide' });
      await createSchedule(f.owner.agent, f.org.id, { name: 'F wide' });
      const a2 = await createSchedule(a.owner.agent, a.org.id, { name: 'A plan', plan: pa.plan });
      const a2v2 = (
        await a.owner.agent
          .put(`/v1/vestingSchedule/${a2.id}`)
          .send({ organization: a.org.id, ...STANDARD, name: 'A plan v2', plan: pa.plan })
          .expect(200)
      ).body;
      await d.owner.agent.delete(`/v1/organization/${d.org.id}/member/${inD.id}`).expect(200);
      await e.owner.agent.delete(`/v1/organization/${e.org.id}`).expect(200);

      const all = (q = '') => caller.agent.get(`/v1/vestingSchedule${q}`);
      // Current versions, oldest first, across A and B only (each names its organization).
      const mine = (await all().expect(200)).body as ScheduleBody[];
      expect(mine).toEqual([a1, b1, a2v2]);
      expect(mine.map((s) => s.organization)).toEqual([a.org.id, b.org.id, a.org.id]);
      expect((await all('?versions=all').expect(200)).body).toEqual([
        a1,
        b1,
        { ...a2, supersededBy: a2v2.id },
        a2v2,
      ]);
      expect((await all('?limit=1&offset=1').expect(200)).body).toEqual([b1]);
      // plan=: a plan of one's own organizations; another organization's is 404, as with one.
      expect((await all(`?plan=${pa.plan}`).expect(200)).body).toEqual([a2v2]);
      await all(`?plan=${pf.plan}`).expect(404).expect(errorBody(404));
      await all(`?plan=${UNKNOWN}`).expect(404);
      await all('?plan=x').expect(400);
      await all('?status=active').expect(400);

      // With ?organization= it is that organization's list, and its permission check, as before.
      expect((await all(`?organization=${a.org.id}`).expect(200)).body).toEqual([a1, a2v2]);
      expect((await all(`?organization=${b.org.id}`).expect(200)).body).toEqual([b1]);
      await all(`?organization=${c.org.id}`).expect(403).expect(errorBody(403));
      await all(`?organization=${d.org.id}`).expect(403);
      await all(`?organization=${e.org.id}`).expect(404);
      await all(`?organization=${f.org.id}`).expect(403);
      await all(`?organization=${UNKNOWN}`).expect(404);

      // F's owner sees only F's; a user of no organization sees nothing.
      expect((await f.owner.agent.get('/v1/vestingSchedule').expect(200)).body).toEqual([
        expect.objectContaining({ organization: f.org.id, name: 'F wide' }),
      ]);
      const nobody = await loggedInAgent(t);
      expect((await nobody.agent.get('/v1/vestingSchedule').expect(200)).body).toEqual([]);
      await nobody.agent.get(`/v1/vestingSchedule?plan=${pa.plan}`).expect(404);
      // No session: 401, with or without an organization.
      await t.http.get('/v1/vestingSchedule').expect(401).expect(errorBody(401));
      await t.http.get(`/v1/vestingSchedule?organization=${a.org.id}`).expect(401);
    });

    it('404 for an unknown schedule or organization, 400 for a bad id', async () => {
      const { owner } = await ownerWithOrg(t);
      await owner.agent.get(`/v1/vestingSchedule/${UNKNOWN}`).expect(404).expect(errorBody(404));
      await owner.agent.get('/v1/vestingSchedule/nope').expect(400);
      await owner.agent
        .get(`/v1/vestingSchedule?organization=${UNKNOWN}`)
        .expect(404)
        .expect(errorBody(404));
    });
  });

  describe('POST /v1/schedule/project', () => {
    const schedule = (fields: Record<string, unknown> = {}) => {
      const { name: _name, ...terms } = STANDARD;
      return { ...terms, ...fields };
    };
    const amounts = (events: ProjectedEvent[]) => events.map((e) => e.amount);

    it.each([
      ['CUMULATIVE_ROUNDING', ['5', '4', '5', '4']],
      ['CUMULATIVE_ROUND_DOWN', ['4', '5', '4', '5']],
      ['FRONT_LOADED', ['5', '5', '4', '4']],
      ['BACK_LOADED', ['4', '4', '5', '5']],
      ['FRONT_LOADED_TO_SINGLE_TRANCHE', ['6', '4', '4', '4']],
      ['BACK_LOADED_TO_SINGLE_TRANCHE', ['4', '4', '4', '6']],
      ['FRACTIONAL', ['4.5', '4.5', '4.5', '4.5']],
    ])('allocates 18 shares over 4 tranches by %s: %j', async (allocationType, expected) => {
      const { owner } = await ownerWithOrg(t);
      const res = await project(owner.agent, {
        quantity: '18',
        vestingStartDate: '2024-01-15',
        schedule: schedule({ totalPeriods: 4, cliffPeriods: 0, allocationType }),
      }).expect(200);
      expect(amounts(res.body.events)).toEqual(expected);
      expect(res.body.events.map((e: ProjectedEvent) => e.date)).toEqual([
        '2024-02-15',
        '2024-03-15',
        '2024-04-15',
        '2024-05-15',
      ]);
      expect(res.body.events.at(-1).cumulative).toBe('18');
    });

    it('vests the standard 4-year/1-year-cliff schedule: 1200 at month 12, then 100 a month to month 48', async () => {
      const { owner } = await ownerWithOrg(t);
      const res = await project(owner.agent, {
        quantity: '4800',
        vestingStartDate: '2024-01-15',
        schedule: schedule(),
      }).expect(200);
      expect(Object.keys(res.body)).toEqual(['events']);
      const list = res.body.events as ProjectedEvent[];
      expect(list).toHaveLength(37);
      expect(list[0]).toEqual({ date: '2025-01-15', amount: '1200', cumulative: '1200' });
      // Nothing before the cliff.
      expect(list.every((e) => e.date >= '2025-01-15')).toBe(true);
      list.slice(1).forEach((e, i) => {
        const month = 13 + i;
        const year = 2024 + Math.floor(month / 12);
        expect(e).toEqual({
          date: `${year}-${String((month % 12) + 1).padStart(2, '0')}-15`,
          amount: '100',
          cumulative: String(1200 + 100 * (i + 1)),
        });
      });
      expect(list.at(-1)).toEqual({ date: '2028-01-15', amount: '100', cumulative: '4800' });
    });

    it.each([
      ['31_OR_LAST_DAY_OF_MONTH', '2024-01-31', ['2024-02-29', '2024-03-31', '2024-04-30']],
      ['VESTING_START_DAY_OR_LAST_DAY_OF_MONTH', '2024-01-31', ['2024-02-29', '2024-03-31']],
      ['29_OR_LAST_DAY_OF_MONTH', '2023-01-10', ['2023-02-28', '2023-03-29', '2023-04-29']],
      ['30_OR_LAST_DAY_OF_MONTH', '2024-01-10', ['2024-02-29', '2024-03-30', '2024-04-30']],
      ['01', '2024-01-31', ['2024-02-01', '2024-03-01', '2024-04-01']],
      ['15', '2024-01-31', ['2024-02-15', '2024-03-15', '2024-04-15']],
      [null, '2024-01-31', ['2024-02-29', '2024-03-31', '2024-04-30']],
    ])('places vesting dates by vestingDayOfMonth %s (start %s)', async (day, start, dates) => {
      const { owner } = await ownerWithOrg(t);
      const res = await project(owner.agent, {
        quantity: '12',
        vestingStartDate: start,
        schedule: schedule({ totalPeriods: 12, cliffPeriods: 0, vestingDayOfMonth: day }),
      }).expect(200);
      const got = (res.body.events as ProjectedEvent[]).map((e) => e.date);
      expect(got.slice(0, dates.length)).toEqual(dates);
    });

    it('projects yearly and daily periods', async () => {
      const { owner } = await ownerWithOrg(t);
      const yearly = await project(owner.agent, {
        quantity: '1000',
        vestingStartDate: '2024-02-29',
        schedule: schedule({ totalPeriods: 4, periodType: 'years', cliffPeriods: 1 }),
      }).expect(200);
      expect(yearly.body.events).toEqual([
        { date: '2025-02-28', amount: '250', cumulative: '250' },
        { date: '2026-02-28', amount: '250', cumulative: '500' },
        { date: '2027-02-28', amount: '250', cumulative: '750' },
        { date: '2028-02-29', amount: '250', cumulative: '1000' },
      ]);
      const daily = await project(owner.agent, {
        quantity: '3',
        vestingStartDate: '2024-12-30',
        schedule: schedule({
          totalPeriods: 3,
          periodLength: 1,
          periodType: 'days',
          cliffPeriods: 0,
        }),
      }).expect(200);
      expect(daily.body.events.map((e: ProjectedEvent) => e.date)).toEqual([
        '2024-12-31',
        '2025-01-01',
        '2025-01-02',
      ]);
    });

    it('projects by a stored schedule, any version, with its own terms; saves nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const v1 = await createSchedule(owner.agent, org.id);
      await owner.agent
        .put(`/v1/vestingSchedule/${v1.id}`)
        .send({ organization: org.id, ...STANDARD, totalPeriods: 4, cliffPeriods: 0 })
        .expect(200);
      const before = await snapshot(org.id);
      const res = await project(owner.agent, {
        quantity: '4800',
        vestingStartDate: '2024-01-15',
        vestingSchedule: v1.id,
      }).expect(200);
      expect(res.body.events).toHaveLength(37);
      expect(res.body.events[0]).toEqual({
        date: '2025-01-15',
        amount: '1200',
        cumulative: '1200',
      });
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('applies acceleration on a change of control (single) or a later termination (double)', async () => {
      const { owner } = await ownerWithOrg(t);
      const single = await project(owner.agent, {
        quantity: '4800',
        vestingStartDate: '2024-01-15',
        changeOfControlDate: '2025-06-30',
        schedule: schedule({ acceleration: { trigger: 'single', percent: '100' } }),
      }).expect(200);
      // 1200 + 5 × 100 vested by then; all the rest on the change of control.
      expect(single.body.events.at(-1)).toEqual({
        date: '2025-06-30',
        amount: '3100',
        cumulative: '4800',
      });
      const body = {
        quantity: '4800',
        vestingStartDate: '2024-01-15',
        changeOfControlDate: '2025-06-30',
        schedule: schedule({ acceleration: { trigger: 'double', percent: '50' } }),
      };
      // Double trigger without a termination: the plain schedule.
      const plain = await project(owner.agent, body).expect(200);
      expect(plain.body.events).toHaveLength(37);
      const terminated = await project(owner.agent, {
        ...body,
        terminationDate: '2025-07-01',
      }).expect(200);
      const onTermination = terminated.body.events.find(
        (e: ProjectedEvent) => e.date === '2025-07-01',
      );
      // Half of the 3100 unvested on 2025-07-01.
      expect(onTermination).toEqual({ date: '2025-07-01', amount: '1550', cumulative: '3250' });
      expect(terminated.body.events.at(-1).cumulative).toBe('4800');
    });

    it('needs whole shares for whole-share allocation types; FRACTIONAL takes fractions', async () => {
      const { owner } = await ownerWithOrg(t);
      const refused = await project(owner.agent, {
        quantity: '10.5',
        vestingStartDate: '2024-01-15',
        schedule: schedule({ totalPeriods: 4, cliffPeriods: 0 }),
      }).expect(400);
      expect(refused.body).toMatchObject({ error: 'Bad Request', field: 'quantity' });
      expect(refused.body.message).toMatch(/whole/);
      const fractional = await project(owner.agent, {
        quantity: '10.5',
        vestingStartDate: '2024-01-15',
        schedule: schedule({ totalPeriods: 4, cliffPeriods: 0, allocationType: 'FRACTIONAL' }),
      }).expect(200);
      expect(amounts(fractional.body.events)).toEqual(['2.625', '2.625', '2.625', '2.625']);
    });

    it.each([
      ['neither a schedule nor an id', { schedule: undefined }, 'vestingSchedule'],
      ['both a schedule and an id', { vestingSchedule: 'ID' }, 'schedule'],
      [
        'a cliff longer than the schedule',
        { schedule: { cliffPeriods: 49 } },
        'schedule.cliffPeriods',
      ],
      [
        'acceleration over 100%',
        { schedule: { acceleration: { trigger: 'single', percent: '101' } } },
        'schedule.acceleration.percent',
      ],
      ['a vesting past year 9999', { vestingStartDate: '9998-01-01' }, 'vestingStartDate'],
      ['no quantity', { quantity: undefined }, undefined],
      ['a zero quantity', { quantity: '0' }, undefined],
      ['a negative quantity', { quantity: '-48' }, undefined],
      ['no start date', { vestingStartDate: undefined }, undefined],
      ['an impossible date', { vestingStartDate: '2024-02-30' }, undefined],
      ['a bad schedule id', { schedule: undefined, vestingSchedule: 'nope' }, undefined],
      ['a schedule that is no object', { schedule: 'standard' }, undefined],
      ['an unknown period type', { schedule: { periodType: 'weeks' } }, undefined],
      ['an unknown allocation', { schedule: { allocationType: 'EVEN' } }, undefined],
      ['a bad change-of-control date', { changeOfControlDate: '2025-13-01' }, undefined],
    ])('refuses %s (400)', async (_name, change, field) => {
      const { owner, org } = await ownerWithOrg(t);
      const stored = await createSchedule(owner.agent, org.id);
      const body: Record<string, unknown> = {
        quantity: '4800',
        vestingStartDate: '2024-01-15',
        schedule: schedule(),
      };
      for (const [k, v] of Object.entries(change)) {
        if (k === 'schedule' && v && typeof v === 'object') body.schedule = schedule(v);
        else body[k] = v === 'ID' ? stored.id : v;
      }
      const res = await project(owner.agent, body).expect(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', message: expect.any(String) });
      if (field) expect(res.body.field).toBe(field);
    });
  });

  describe('access', () => {
    async function fixture() {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const schedule = await createSchedule(owner.agent, org.id, { plan: p.plan });
      return { owner, org, plan: p.plan, schedule };
    }

    const body = (org: string) => ({ organization: org, ...STANDARD });
    const reads = (org: string, id: string) =>
      [
        (a: Agent) => a.get(`/v1/vestingSchedule/${id}`),
        (a: Agent) => a.get(`/v1/vestingSchedule?organization=${org}`),
        (a: Agent) =>
          a
            .post('/v1/schedule/project')
            .send({ quantity: '48', vestingStartDate: '2024-01-01', vestingSchedule: id }),
      ] as const;
    const writes = (org: string, plan: string, id: string) =>
      [
        (a: Agent) => a.post('/v1/vestingSchedule').send(body(org)),
        (a: Agent) => a.put(`/v1/vestingSchedule/${id}`).send(body(org)),
        (a: Agent) => a.delete(`/v1/plan/${plan}/vestingSchedule/${id}`),
      ] as const;
    const inline = (a: Agent) =>
      a.post('/v1/schedule/project').send({
        quantity: '48',
        vestingStartDate: '2024-01-01',
        schedule: { ...STANDARD, name: undefined },
      });

    it('401 without a session on every route', async () => {
      const { org, plan, schedule } = await fixture();
      const anonymous = t.http as unknown as Agent;
      for (const call of [
        ...reads(org.id, schedule.id),
        ...writes(org.id, plan, schedule.id),
        inline,
      ]) {
        await call(anonymous).expect(401).expect(errorBody(401));
      }
    });

    it('Viewer and Shareholder read (canViewOrganization) but may not write (canEditCapTable)', async () => {
      const { owner, org, plan, schedule } = await fixture();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const before = await snapshot(org.id);
      for (const who of [viewer, shareholder]) {
        const [getOne, list, projected] = reads(org.id, schedule.id);
        expect((await getOne(who.agent).expect(200)).body).toEqual(schedule);
        expect((await list(who.agent).expect(200)).body).toEqual([schedule]);
        expect((await projected(who.agent).expect(200)).body.events).toHaveLength(37);
        await inline(who.agent).expect(200);
        for (const call of writes(org.id, plan, schedule.id)) {
          const res = await call(who.agent).expect(403);
          expect(res.body).toEqual(ERROR_BODIES[403]);
        }
      }
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('Editor and Admin write (canEditCapTable), as the log’s actor', async () => {
      const { owner, org, plan } = await fixture();
      for (const role of ['Editor', 'Admin']) {
        const who = await memberAgent(t, owner.agent, org.id, role);
        const created = await createSchedule(who.agent, org.id, { plan });
        const v2 = (
          await who.agent.put(`/v1/vestingSchedule/${created.id}`).send(body(org.id)).expect(200)
        ).body;
        await who.agent.delete(`/v1/plan/${plan}/vestingSchedule/${v2.id}`).expect(200);
        const actors = (await log(org.id)).slice(-3).map((r) => r.actor_user_id);
        expect(actors).toEqual([who.user.id, who.user.id, who.user.id]);
      }
    });

    it('an outsider is refused (403) on every route that names the organization or the schedule', async () => {
      const { org, plan, schedule } = await fixture();
      const outsider = await ownerWithOrg(t, 'Outsider Co');
      for (const call of [...reads(org.id, schedule.id), ...writes(org.id, plan, schedule.id)]) {
        const res = await call(outsider.owner.agent);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(ERROR_BODIES[403]);
      }
      // An inline projection names no organization: a session is enough.
      await inline(outsider.owner.agent).expect(200);
    });

    it('another organization’s schedule under one’s own body organization is 404, never a leak', async () => {
      const a = await fixture();
      const b = await ownerWithOrg(t, 'Other Co');
      const before = await snapshot(a.org.id);
      // B's owner has every permission in B, and names B in the body: A's schedule is not there.
      const res = await b.owner.agent
        .put(`/v1/vestingSchedule/${a.schedule.id}`)
        .send(body(b.org.id))
        .expect(404);
      expect(res.body).toEqual(ERROR_BODIES[404]);
      // A's owner names B (not theirs) for A's schedule: still not B's record.
      await a.owner.agent
        .put(`/v1/vestingSchedule/${a.schedule.id}`)
        .send(body(b.org.id))
        .expect(404);
      // B's list shows nothing of A's.
      expect(
        (await b.owner.agent.get(`/v1/vestingSchedule?organization=${b.org.id}`).expect(200)).body,
      ).toEqual([]);
      expect(await snapshot(a.org.id)).toEqual(before);
    });

    it('a removed member loses access', async () => {
      const { owner, org, schedule } = await fixture();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent.get(`/v1/vestingSchedule/${schedule.id}`).expect(200);
      await owner.agent.delete(`/v1/organization/${org.id}/member/${viewer.member.id}`).expect(200);
      await viewer.agent.get(`/v1/vestingSchedule/${schedule.id}`).expect(403);
    });
  });

  describe('OpenAPI', () => {
    it('documents every route with a summary, its permission and the OCF enums', async () => {
      const doc = (await t.http.get('/docs-json').expect(200)).body;
      const routes: [string, string, string][] = [
        ['post', '/v1/vestingSchedule', 'canEditCapTable'],
        ['put', '/v1/vestingSchedule/{vestingSchedule}', 'canEditCapTable'],
        ['delete', '/v1/plan/{plan}/vestingSchedule/{vestingSchedule}', 'canEditCapTable'],
        ['get', '/v1/vestingSchedule/{vestingSchedule}', 'canViewOrganization'],
        ['get', '/v1/vestingSchedule', 'canViewOrganization'],
        ['post', '/v1/schedule/project', 'canViewOrganization'],
      ];
      for (const [method, path, permission] of routes) {
        const op = doc.paths[path]?.[method];
        expect({ path, method, summary: op?.summary }).toEqual({
          path,
          method,
          summary: expect.any(String),
        });
        expect(op.description).toContain(permission);
        expect(op.tags).toEqual(['cap table']);
      }
      expect(doc.paths['/v1/schedule/project'].post.responses['200']).toBeDefined();
      const del = doc.paths['/v1/plan/{plan}/vestingSchedule/{vestingSchedule}'].delete;
      expect(del.responses['200'].description).toContain('{}');
      expect(del.responses['204']).toBeUndefined();
      const listed = doc.paths['/v1/vestingSchedule'].get;
      expect(
        listed.parameters.find((q: { name: string }) => q.name === 'organization'),
      ).toMatchObject({ in: 'query', required: false });
      expect(listed.description).toContain('Without it');
      const terms = doc.components.schemas.ScheduleTermsDto.properties;
      expect(terms.allocationType.enum).toEqual([...ALLOCATION_TYPES]);
      expect(terms.vestingDayOfMonth.enum).toHaveLength(32);
      expect(terms.periodType.enum).toEqual(['days', 'months', 'years']);
    });
  });

  describe('the log and the activity log', () => {
    it('a scripted history replays to the stored schedules (ledger:verify) and reaches the activity log', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const p = await makePlan(owner, org.id);
      const v1 = await createSchedule(owner.agent, org.id, { plan: p.plan });
      const v2 = (
        await owner.agent
          .put(`/v1/vestingSchedule/${v1.id}`)
          .send({ organization: org.id, plan: p.plan, ...STANDARD, totalPeriods: 36 })
          .expect(200)
      ).body;
      await grant(owner, org.id, p, v2.id);
      const v3 = (
        await owner.agent
          .put(`/v1/vestingSchedule/${v2.id}`)
          .send({
            organization: org.id,
            ...STANDARD,
            acceleration: { trigger: 'single', percent: 25 },
          })
          .expect(200)
      ).body;
      expect(v3.acceleration).toEqual({ trigger: 'single', percent: '25' });
      const other = await createSchedule(owner.agent, org.id, { name: 'Other' });
      await owner.agent.delete(`/v1/plan/${p.plan}/vestingSchedule/${other.id}`).expect(200);
      await owner.agent.delete(`/v1/plan/${p.plan}/vestingSchedule/${v1.id}`).expect(200);
      await owner.agent.delete(`/v1/plan/${p.plan}/vestingSchedule/${v2.id}`).expect(409);

      const verified = await verifyLedger(t, org.id);
      expect(verified).toMatchObject({ code: 0 });

      const types = (await events(org.id)).map((e) => e.type);
      expect(types).toEqual([
        'vesting_schedule.created',
        'vesting_schedule.updated',
        'vesting_schedule.updated',
        'vesting_schedule.created',
        'vesting_schedule.deleted',
        'vesting_schedule.deleted',
      ]);
      const entries = await eventually(async () => {
        const res = await owner.agent
          .get(`/v1/organization/${org.id}/action`)
          .query({ type: 'vesting_schedule.' })
          .expect(200);
        if (res.body.length < 6) throw new Error(`not yet: ${res.body.length} entries`);
        return res.body as { type: string; description: string; userId: string }[];
      });
      expect(entries.map((e) => e.userId)).toEqual(Array(6).fill(owner.user.id));
      expect(entries.map((e) => e.description)).toEqual(
        expect.arrayContaining([
          'vesting schedule Four years, one-year cliff (version 1): deleted',
          'vesting schedule Other (version 1): deleted',
        ]),
      );
    });
  });
});
