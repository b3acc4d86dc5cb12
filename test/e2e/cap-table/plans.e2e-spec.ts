import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { LedgerWriter } from '../../../src/cap-table/ledger/ledger-writer';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES, errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import { LoggedInUser } from '../../support/users';
import { orgWithClass } from '../../support/world';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING = '00000000-0000-4000-8000-00000000abcd';
const today = () => new Date().toISOString().slice(0, 10);

/** The first day of the month `months` before the current one (UTC, as the server counts days). */
function monthsAgo(months: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return d.toISOString().slice(0, 10);
}

interface PoolBody {
  id: string;
  name: string;
  sharesReserved: string;
  granted: string;
  exercised: string;
  cancelled: string;
  returned: string;
  available: string;
  outstanding: string;
}

interface PlanBody {
  id: string;
  organization: string;
  name: string;
  security: string;
  sharesReserved: string;
  boardApprovalDate: string | null;
  stockholderApprovalDate: string | null;
  defaultCancellationBehavior: string;
  pools: PoolBody[];
  created: string;
  updated: string;
}

interface LogRow {
  type: string;
  effectiveDate: string;
  actor: string | null;
  payload: Record<string, unknown>;
}

interface EventRow {
  type: string;
  actor: string | null;
  description: string | null;
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> };
}

/** A pool with nothing granted from it. */
const freshPool = (name: string, sharesReserved: string) => ({
  id: expect.stringMatching(UUID),
  name,
  sharesReserved,
  granted: '0',
  exercised: '0',
  cancelled: '0',
  returned: '0',
  available: sharesReserved,
  outstanding: '0',
});

/** A validation refusal: 400 naming the field, with `invalidFields` when it is missing. */
const refusal = (field: string, missing: boolean) => ({
  error: 'Bad Request',
  ...(missing ? { key: 'invalidFields' } : {}),
  message: expect.stringContaining(field),
});

/** What a plan's body and a pool's body both refuse: [label, change, field, missing]. */
const NAME_AND_RESERVATION_CASES: [string, Record<string, unknown>, string, boolean][] = [
  ['name missing', { name: undefined }, 'name', true],
  ['name empty', { name: '  ' }, 'name', false],
  ['name too long', { name: 'x'.repeat(201) }, 'name', false],
  ['sharesReserved missing', { sharesReserved: undefined }, 'sharesReserved', true],
  ['sharesReserved negative', { sharesReserved: '-1' }, 'sharesReserved', false],
  ['sharesReserved not a number', { sharesReserved: 'many' }, 'sharesReserved', false],
];

describe('stock plans and pools', () => {
  let t: TestApp;
  let db: DataSource;
  let ledger: LedgerWriter;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
    ledger = t.get(LedgerWriter);
  });
  afterAll(() => t.close());

  const plansPath = (org: string) => `/v1/organization/${org}/plan`;
  const planPath = (id: string) => `/v1/plan/${id}`;
  const poolsPath = (org: string) => `/v1/captable/${org}/pool`;

  const log = (org: string): Promise<LogRow[]> =>
    db.query(
      `SELECT type, effective_date::text AS "effectiveDate", actor_user_id AS actor, payload
       FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
      [org],
    );
  const events = (org: string, prefix = 'plan.'): Promise<EventRow[]> =>
    db.query(
      `SELECT type, actor_user_id AS actor, description, data FROM outbox_event
       WHERE organization_id = $1 AND type LIKE $2 ORDER BY sequence`,
      [org, `${prefix}%`],
    );

  /** An organization with its owner and a class of 10,000,000 authorized shares. */
  const capTable = (authorizedShares = '10000000') => orgWithClass(t, { authorizedShares });

  async function createPlan(
    agent: Agent,
    org: string,
    security: string,
    fields: Record<string, unknown> = {},
  ): Promise<PlanBody> {
    const res = await agent.post(plansPath(org)).send({
      name: '2024 Equity Incentive Plan',
      security,
      sharesReserved: '1000000',
      pools: [{ name: 'Employees', sharesReserved: '600000' }],
      ...fields,
    });
    if (res.status !== 201)
      throw new Error(`create plan: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Everything a refused request must leave as it was. */
  const snapshot = async (agent: Agent, org: string, security: string) => ({
    plans: (await agent.get(plansPath(org)).expect(200)).body,
    pools: (await agent.get(poolsPath(org)).expect(200)).body,
    security: (await agent.get(`/v1/organization/${org}/security/${security}`).expect(200)).body,
    log: await log(org),
    events: await events(org, ''),
  });

  // Grants, exercises and cancellations go through the ledger itself (the holding routes are another module's).
  async function grant(
    owner: LoggedInUser,
    org: string,
    plan: PlanBody,
    pool: string,
    member: string,
    quantity: string,
    schedule: { id: string; vestingStartDate: string } | null = null,
  ): Promise<string> {
    const id = randomUUID();
    await ledger.change(
      org,
      owner.user.id,
      { plans: [plan.id], schedules: schedule ? [schedule.id] : [] },
      (c) =>
        c.apply('TX_EQUITY_COMPENSATION_ISSUANCE', '2024-01-01', {
          holding: {
            id,
            memberId: member,
            type: 'option_nso',
            planId: plan.id,
            poolId: pool,
            securityId: plan.security,
            vestingScheduleId: schedule?.id ?? null,
            terms: {
              quantity,
              exercisePrice: '0.1',
              grantDate: '2024-01-01',
              expirationDate: '2034-01-01',
              vestingStartDate: schedule?.vestingStartDate ?? null,
              earlyExercisable: false,
            },
          },
        }),
    );
    return id;
  }

  const cancel = (owner: LoggedInUser, org: string, holding: string, returnedToPool: boolean) =>
    ledger.change(org, owner.user.id, { holdings: [holding] }, (c) =>
      c.apply('TX_EQUITY_COMPENSATION_CANCELLATION', '2024-06-01', {
        holdingId: holding,
        quantity: c.state.holdings.get(holding)!.quantity!.toString(),
        returnedToPool,
        reason: 'left the company',
      }),
    );

  const exercise = (owner: LoggedInUser, org: string, holding: string, quantity: string) =>
    ledger.change(org, owner.user.id, { holdings: [holding] }, (c) =>
      c.apply('TX_EQUITY_COMPENSATION_EXERCISE', '2024-06-01', {
        holdingId: holding,
        requestId: null,
        quantity,
        date: '2024-06-01',
        paymentMethod: 'cash',
        shareholdingId: randomUUID(),
        legendIds: [],
      }),
    );

  /** The standard schedule: 48 months, a 12-month cliff. */
  async function standardSchedule(owner: LoggedInUser, org: string): Promise<string> {
    const id = randomUUID();
    await ledger.change(org, owner.user.id, {}, (c) =>
      c.apply('VESTING_TERMS_CREATED', '2024-01-01', {
        vestingSchedule: {
          id,
          name: 'Standard 4y/1y',
          planId: null,
          version: 1,
          previousVersionId: null,
          totalPeriods: 48,
          periodLength: 1,
          periodType: 'months',
          cliffPeriods: 12,
          allocationType: 'CUMULATIVE_ROUNDING',
          vestingDayOfMonth: null,
          acceleration: null,
        },
      }),
    );
    return id;
  }

  describe('POST /v1/organization/:organization/plan', () => {
    it('creates a plan with its pools: the shape, the log (one transaction per record, dated by the board approval), the event', async () => {
      const { owner, org, security } = await capTable();
      const res = await owner.agent
        .post(plansPath(org.id))
        .send({
          name: '  2024 Equity Incentive Plan ',
          security: security.id,
          sharesReserved: '1000000',
          boardApprovalDate: '2024-02-01',
          stockholderApprovalDate: '2024-03-01',
          defaultCancellationBehavior: 'retire',
          pools: [
            { name: 'Employees', sharesReserved: '600000' },
            { name: 'Advisors', sharesReserved: 300000 },
          ],
          // Not the client's to set.
          id: MISSING,
          organization: MISSING,
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        name: '2024 Equity Incentive Plan',
        security: security.id,
        sharesReserved: '1000000',
        boardApprovalDate: '2024-02-01',
        stockholderApprovalDate: '2024-03-01',
        defaultCancellationBehavior: 'retire',
        // Pools made by one request: by name.
        pools: [freshPool('Advisors', '300000'), freshPool('Employees', '600000')],
        created: expect.stringMatching(TIMESTAMP),
        updated: expect.stringMatching(TIMESTAMP),
      });
      const plan = res.body as PlanBody;
      expect(plan.id).not.toBe(MISSING);
      expect((await owner.agent.get(planPath(plan.id)).expect(200)).body).toEqual(plan);
      expect((await owner.agent.get(plansPath(org.id)).expect(200)).body).toEqual([plan]);

      const advisors = plan.pools[0].id;
      const employees = plan.pools[1].id;
      expect(await log(org.id)).toEqual([
        expect.objectContaining({ type: 'STOCK_CLASS_CREATED' }),
        {
          type: 'STOCK_PLAN_CREATED',
          effectiveDate: '2024-02-01',
          actor: owner.user.id,
          payload: {
            plan: {
              id: plan.id,
              name: '2024 Equity Incentive Plan',
              securityId: security.id,
              sharesReserved: '1000000',
              boardApprovalDate: '2024-02-01',
              stockholderApprovalDate: '2024-03-01',
              defaultCancellationBehavior: 'retire',
            },
          },
        },
        {
          type: 'STOCK_PLAN_POOL_CREATED',
          effectiveDate: '2024-02-01',
          actor: owner.user.id,
          payload: {
            pool: { id: employees, planId: plan.id, name: 'Employees', sharesReserved: '600000' },
          },
        },
        {
          type: 'STOCK_PLAN_POOL_CREATED',
          effectiveDate: '2024-02-01',
          actor: owner.user.id,
          payload: {
            pool: { id: advisors, planId: plan.id, name: 'Advisors', sharesReserved: '300000' },
          },
        },
      ]);
      // The class holds the reservation back.
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body).toMatchObject({ issuedShares: '0', reservedShares: '1000000' });

      const [created] = await events(org.id);
      expect(created).toEqual({
        type: 'plan.created',
        actor: owner.user.id,
        description:
          'plan 2024 Equity Incentive Plan: created with 1000000 shares of Common Stock reserved, pools Advisors (300000), Employees (600000)',
        data: { object: plan, previous_attributes: {} },
      });
      // And it lands in the activity log.
      await eventually(async () => {
        const actions = await owner.agent.get(`/v1/organization/${org.id}/action`).expect(200);
        return (actions.body as { type: string }[]).some((a) => a.type === 'plan.created');
      });
    });

    it('fills the defaults: no dates, return_to_pool, no pools (dated today)', async () => {
      const { owner, org, security } = await capTable();
      const res = await owner.agent
        .post(plansPath(org.id))
        .send({ name: 'Plan', security: security.id, sharesReserved: 0 })
        .expect(201);
      expect(res.body).toMatchObject({
        sharesReserved: '0',
        boardApprovalDate: null,
        stockholderApprovalDate: null,
        defaultCancellationBehavior: 'return_to_pool',
        pools: [],
      });
      const empty = await owner.agent
        .post(plansPath(org.id))
        .send({ name: 'Plan 2', security: security.id, sharesReserved: '10', pools: [] })
        .expect(201);
      expect(empty.body.pools).toEqual([]);
      const rows = await log(org.id);
      expect(rows.slice(1).map((r) => [r.type, r.effectiveDate])).toEqual([
        ['STOCK_PLAN_CREATED', today()],
        ['STOCK_PLAN_CREATED', today()],
      ]);
      expect((await events(org.id))[0].description).toBe(
        'plan Plan: created with 0 shares of Common Stock reserved, no pools',
      );
    });

    it('reserves at most the class’s unissued shares (authorized − issued − other plans): 400 insufficientShares, nothing recorded', async () => {
      const { owner, org, security } = await capTable('1000');
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, { member: holder.id, security: security.id, quantity: 400 });
      const before = await snapshot(owner.agent, org.id, security.id);
      const tooMany = await owner.agent
        .post(plansPath(org.id))
        .send({ name: 'Plan', security: security.id, sharesReserved: '601', pools: [] })
        .expect(400);
      expect(tooMany.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('600'),
      });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);

      await createPlan(owner.agent, org.id, security.id, { sharesReserved: '600', pools: [] });
      // Another plan cannot take shares the first one reserved.
      const second = await owner.agent
        .post(plansPath(org.id))
        .send({ name: 'Plan 2', security: security.id, sharesReserved: '1', pools: [] })
        .expect(400);
      expect(second.body.key).toBe('insufficientShares');
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body).toMatchObject({
        authorizedShares: '1000',
        issuedShares: '400',
        reservedShares: '600',
      });
    });

    it('refuses pools reserving more than the plan (400 insufficientShares): nothing of it is recorded', async () => {
      const { owner, org, security } = await capTable();
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent
        .post(plansPath(org.id))
        .send({
          name: 'Plan',
          security: security.id,
          sharesReserved: '1000',
          pools: [
            { name: 'A', sharesReserved: '600' },
            { name: 'B', sharesReserved: '401' },
          ],
        })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('1001'),
      });
      // The plan and the first pool were rolled back with the refused second pool.
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      // Exactly the plan's reservation is fine.
      const ok = await createPlan(owner.agent, org.id, security.id, {
        sharesReserved: '1000',
        pools: [
          { name: 'A', sharesReserved: '600' },
          { name: 'B', sharesReserved: '400' },
        ],
      });
      expect(ok.pools.map((x) => x.available)).toEqual(['600', '400']);
    });

    it('takes fractional quantities for an LLC only', async () => {
      const { owner, org, security } = await capTable();
      const cases: [Record<string, unknown>, string][] = [
        [{ sharesReserved: '100.5' }, 'sharesReserved'],
        [{ pools: [{ name: 'A', sharesReserved: '10.25' }] }, 'pools[0].sharesReserved'],
      ];
      for (const [body, field] of cases) {
        const res = await owner.agent
          .post(plansPath(org.id))
          .send({ name: 'Plan', security: security.id, sharesReserved: '1000', ...body })
          .expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          message: expect.stringContaining(field),
          field,
        });
      }
      expect((await owner.agent.get(plansPath(org.id)).expect(200)).body).toEqual([]);

      const llc = await owner.agent
        .post('/v1/organization')
        .send({ name: 'Units LLC', type: 'llc' })
        .expect(201);
      const units = await createSecurity(owner.agent, llc.body.id, { authorizedShares: '1000.5' });
      const plan = await createPlan(owner.agent, llc.body.id, units.id, {
        sharesReserved: '100.5',
        pools: [{ name: 'A', sharesReserved: '10.25' }],
      });
      expect(plan).toMatchObject({
        sharesReserved: '100.5',
        pools: [freshPool('A', '10.25')],
      });
    });

    it.each([
      ...NAME_AND_RESERVATION_CASES,
      ['security missing', { security: undefined }, 'security', true],
      ['security not a UUID', { security: 'common' }, 'security', false],
      [
        'boardApprovalDate invalid',
        { boardApprovalDate: '2024-02-30' },
        'boardApprovalDate',
        false,
      ],
      [
        'stockholderApprovalDate invalid',
        { stockholderApprovalDate: 'March' },
        'stockholderApprovalDate',
        false,
      ],
      [
        'defaultCancellationBehavior unknown',
        { defaultCancellationBehavior: 'forfeit' },
        'defaultCancellationBehavior',
        false,
      ],
      ['pools not an array', { pools: 'A' }, 'pools', false],
      ['a pool without a name', { pools: [{ sharesReserved: '1' }] }, 'pools.0.name', true],
      [
        'a pool with a negative reservation',
        { pools: [{ name: 'A', sharesReserved: '-5' }] },
        'sharesReserved',
        false,
      ],
      ['a pool that is not an object', { pools: ['A'] }, 'pools', false],
    ])('refuses %s (400) and records nothing', async (_label, change, field, missing) => {
      const { owner, org, security } = await capTable();
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent
        .post(plansPath(org.id))
        .send({
          name: 'Plan',
          security: security.id,
          sharesReserved: '1000',
          pools: [{ name: 'A', sharesReserved: '100' }],
          ...change,
        })
        .expect(400);
      expect(res.body).toEqual(refusal(field, missing));
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
    });

    it('refuses a class that is unknown, deleted or another organization’s (404), changing nothing', async () => {
      const { owner, org, security } = await capTable();
      const other = await capTable();
      const deleted = await createSecurity(owner.agent, org.id, {
        name: 'Gone',
        idPrefix: 'GO-',
      });
      await owner.agent.delete(`/v1/organization/${org.id}/security/${deleted.id}`).expect(200);
      const before = await snapshot(owner.agent, org.id, security.id);
      for (const id of [MISSING, deleted.id, other.security.id]) {
        await owner.agent
          .post(plansPath(org.id))
          .send({ name: 'Plan', security: id, sharesReserved: '10', pools: [] })
          .expect(404)
          .expect(errorBody(404));
      }
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      const theirs = await snapshot(other.owner.agent, other.org.id, other.security.id);
      expect(theirs.plans).toEqual([]);
      expect(theirs.security.reservedShares).toBe('0');
    });
  });

  describe('plans reserve shares of their class', () => {
    it('shares reserved for a plan cannot be issued (insufficientShares); what is left can', async () => {
      const { owner, org, security } = await capTable('1000');
      const holder = await createHolder(owner.agent, org.id);
      await createPlan(owner.agent, org.id, security.id, { sharesReserved: '700', pools: [] });
      const refused = await owner.agent
        .post(`/v1/organization/${org.id}/shareholding`)
        .send({
          member: holder.id,
          security: security.id,
          quantity: '301',
          issueDate: '2024-03-01',
        })
        .expect(400);
      expect(refused.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('700 more are reserved for plans'),
      });
      await issue(owner.agent, org.id, { member: holder.id, security: security.id, quantity: 300 });
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body).toMatchObject({
        authorizedShares: '1000',
        issuedShares: '300',
        reservedShares: '700',
      });
    });

    it('the class cannot authorize fewer than issued + reserved (PUT security → 400 insufficientShares)', async () => {
      const { owner, org, security } = await capTable('1000');
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, { member: holder.id, security: security.id, quantity: 100 });
      await createPlan(owner.agent, org.id, security.id, { sharesReserved: '500', pools: [] });
      const body = { name: 'Common Stock', classType: 'common', idPrefix: 'CS-' };
      const path = `/v1/organization/${org.id}/security/${security.id}`;
      const refused = await owner.agent
        .put(path)
        .send({ ...body, authorizedShares: '599' })
        .expect(400);
      expect(refused.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('600'),
      });
      await owner.agent
        .put(path)
        .send({ ...body, authorizedShares: '600' })
        .expect(200);
    });

    it('a deleted plan releases its reservation: the class can issue the shares again', async () => {
      const { owner, org, security } = await capTable('1000');
      const holder = await createHolder(owner.agent, org.id);
      const plan = await createPlan(owner.agent, org.id, security.id, {
        sharesReserved: '1000',
        pools: [{ name: 'A', sharesReserved: '1000' }],
      });
      await owner.agent.delete(planPath(plan.id)).expect(200);
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: 1000,
      });
    });
  });

  describe('PUT /v1/plan/:plan', () => {
    it('replaces the fields and the pools: updates listed pools, creates new ones, deletes left-out ones; the log, the event with previous attributes', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id, {
        boardApprovalDate: '2024-01-10',
        pools: [
          { name: 'Employees', sharesReserved: '600000' },
          { name: 'Advisors', sharesReserved: '300000' },
        ],
      });
      const [advisors, employees] = plan.pools;
      const logBefore = await log(org.id);
      const res = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: '2024 Plan (amended)',
          security: security.id,
          sharesReserved: '1200000',
          stockholderApprovalDate: '2024-04-01',
          defaultCancellationBehavior: 'retire',
          pools: [
            { id: employees.id, name: 'Staff', sharesReserved: '900000' },
            { name: 'Directors', sharesReserved: '100000' },
          ],
        })
        .expect(200);
      expect(res.body).toEqual({
        ...plan,
        name: '2024 Plan (amended)',
        sharesReserved: '1200000',
        // Omitted: cleared, as a PUT replaces the whole plan.
        boardApprovalDate: null,
        stockholderApprovalDate: '2024-04-01',
        defaultCancellationBehavior: 'retire',
        pools: [
          { ...employees, name: 'Staff', sharesReserved: '900000', available: '900000' },
          freshPool('Directors', '100000'),
        ],
        updated: expect.stringMatching(TIMESTAMP),
      });
      const after = res.body as PlanBody;
      expect((await owner.agent.get(planPath(plan.id)).expect(200)).body).toEqual(after);

      // Growing: the pools are deleted first, then the plan grows, then the pools grow or are created.
      const rows = (await log(org.id)).slice(logBefore.length);
      expect(rows).toEqual([
        {
          type: 'STOCK_PLAN_UPDATED',
          effectiveDate: today(),
          actor: owner.user.id,
          payload: {
            planId: plan.id,
            changes: {
              name: '2024 Plan (amended)',
              boardApprovalDate: null,
              stockholderApprovalDate: '2024-04-01',
              defaultCancellationBehavior: 'retire',
            },
          },
        },
        {
          type: 'STOCK_PLAN_POOL_DELETED',
          effectiveDate: today(),
          actor: owner.user.id,
          payload: { poolId: advisors.id },
        },
        {
          type: 'TX_STOCK_PLAN_POOL_ADJUSTMENT',
          effectiveDate: today(),
          actor: owner.user.id,
          payload: {
            planId: plan.id,
            previousSharesReserved: '1000000',
            sharesReserved: '1200000',
          },
        },
        {
          type: 'STOCK_PLAN_POOL_UPDATED',
          effectiveDate: today(),
          actor: owner.user.id,
          payload: { poolId: employees.id, changes: { name: 'Staff', sharesReserved: '900000' } },
        },
        {
          type: 'STOCK_PLAN_POOL_CREATED',
          effectiveDate: today(),
          actor: owner.user.id,
          payload: {
            pool: {
              id: after.pools[1].id,
              planId: plan.id,
              name: 'Directors',
              sharesReserved: '100000',
            },
          },
        },
      ]);
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body.reservedShares).toBe('1200000');

      const updated = (await events(org.id)).filter((e) => e.type === 'plan.updated');
      expect(updated).toEqual([
        {
          type: 'plan.updated',
          actor: owner.user.id,
          description:
            'plan 2024 Equity Incentive Plan: name 2024 Equity Incentive Plan -> 2024 Plan (amended); ' +
            'boardApprovalDate 2024-01-10 -> none; stockholderApprovalDate none -> 2024-04-01; ' +
            'defaultCancellationBehavior return_to_pool -> retire; pool Advisors deleted; ' +
            'sharesReserved 1000000 -> 1200000; pool Employees name -> Staff; ' +
            'pool Staff sharesReserved 600000 -> 900000; pool Directors created (100000)',
          data: {
            object: after,
            previous_attributes: {
              name: '2024 Equity Incentive Plan',
              sharesReserved: '1000000',
              boardApprovalDate: '2024-01-10',
              stockholderApprovalDate: null,
              defaultCancellationBehavior: 'return_to_pool',
              pools: plan.pools,
            },
          },
        },
      ]);
      // A deleted pool is gone from every read.
      const pools = (await owner.agent.get(poolsPath(org.id)).expect(200)).body;
      expect(pools.map((x: { id: string }) => x.id)).toEqual(after.pools.map((x) => x.id));
    });

    it('shrinks pools before the plan and moves shares between pools, in one PUT', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id, {
        sharesReserved: '1000',
        pools: [
          { name: 'A', sharesReserved: '600' },
          { name: 'B', sharesReserved: '400' },
        ],
      });
      const [a, b] = plan.pools;
      const n = (await log(org.id)).length;
      // Plan and both pools shrink: the pools go first, or the plan could not.
      const shrunk = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: plan.name,
          sharesReserved: '500',
          pools: [
            { id: a.id, name: 'A', sharesReserved: '300' },
            { id: b.id, name: 'B', sharesReserved: '200' },
          ],
        })
        .expect(200);
      expect(shrunk.body.pools.map((x: PoolBody) => x.sharesReserved)).toEqual(['300', '200']);
      // Shares move from A to B at the plan's limit: A shrinks before B grows.
      const moved = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: plan.name,
          sharesReserved: '500',
          pools: [
            { id: b.id, name: 'B', sharesReserved: '450' },
            { id: a.id, name: 'A', sharesReserved: '50' },
          ],
        })
        .expect(200);
      expect(moved.body.pools.map((x: PoolBody) => [x.name, x.sharesReserved])).toEqual([
        ['A', '50'],
        ['B', '450'],
      ]);
      expect((await log(org.id)).slice(n).map((r) => [r.type, r.payload])).toEqual([
        ['STOCK_PLAN_POOL_UPDATED', { poolId: a.id, changes: { sharesReserved: '300' } }],
        ['STOCK_PLAN_POOL_UPDATED', { poolId: b.id, changes: { sharesReserved: '200' } }],
        [
          'TX_STOCK_PLAN_POOL_ADJUSTMENT',
          { planId: plan.id, previousSharesReserved: '1000', sharesReserved: '500' },
        ],
        ['STOCK_PLAN_POOL_UPDATED', { poolId: a.id, changes: { sharesReserved: '50' } }],
        ['STOCK_PLAN_POOL_UPDATED', { poolId: b.id, changes: { sharesReserved: '450' } }],
      ]);
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body.reservedShares).toBe('500');
    });

    it('a PUT that changes nothing records nothing and answers the plan', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id, {
        boardApprovalDate: '2024-01-10',
      });
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: plan.name,
          security: security.id,
          sharesReserved: '1000000.000',
          boardApprovalDate: '2024-01-10',
          defaultCancellationBehavior: 'return_to_pool',
          pools: [{ id: plan.pools[0].id, name: 'Employees', sharesReserved: 600000 }],
        })
        .expect(200);
      expect(res.body).toEqual(plan);
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
    });

    it('refuses a plan beyond its class, pools beyond the plan, a pool below what was granted (400 insufficientShares); a pool with grants cannot be left out (409)', async () => {
      const { owner, org, security } = await capTable('10000');
      const holder = await createHolder(owner.agent, org.id);
      const plan = await createPlan(owner.agent, org.id, security.id, {
        sharesReserved: '1000',
        pools: [
          { name: 'A', sharesReserved: '600' },
          { name: 'B', sharesReserved: '400' },
        ],
      });
      const [a, b] = plan.pools;
      await grant(owner, org.id, plan, a.id, holder.id, '500');
      const before = await snapshot(owner.agent, org.id, security.id);
      const put = (sharesReserved: string, pools: unknown[]) =>
        owner.agent.put(planPath(plan.id)).send({ name: plan.name, sharesReserved, pools });

      for (const [sharesReserved, pools, text] of [
        // The class has 10,000 authorized, none issued.
        ['10001', [{ id: a.id, name: 'A', sharesReserved: '600' }], '9000'],
        [
          '1000',
          [
            { id: a.id, name: 'A', sharesReserved: '700' },
            { id: b.id, name: 'B', sharesReserved: '400' },
          ],
          '1100',
        ],
        [
          '1000',
          [
            { id: a.id, name: 'A', sharesReserved: '499' },
            { id: b.id, name: 'B', sharesReserved: '400' },
          ],
          '500',
        ],
        ['400', [{ id: a.id, name: 'A', sharesReserved: '500' }], '500'],
      ] as const) {
        const res = await put(sharesReserved, [...pools]).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          key: 'insufficientShares',
          message: expect.stringContaining(text),
        });
      }
      const busy = await put('1000', [{ id: b.id, name: 'B', sharesReserved: '400' }]).expect(409);
      expect(busy.body).toEqual({ error: 'Conflict', message: expect.stringContaining('pool A') });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);

      // Down to exactly what was granted is fine.
      const ok = await put('500', [{ id: a.id, name: 'A', sharesReserved: '500' }]).expect(200);
      expect(ok.body.pools).toEqual([
        { ...a, sharesReserved: '500', granted: '500', available: '0', outstanding: '500' },
      ]);
    });

    it('refuses a pool id of another plan, of another organization, deleted or twice (404/400), changing nothing', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const sibling = await createPlan(owner.agent, org.id, security.id, { name: 'Other plan' });
      const other = await capTable();
      const foreign = await createPlan(other.owner.agent, other.org.id, other.security.id);
      const gone = await createPlan(owner.agent, org.id, security.id, {
        name: 'Third',
        pools: [
          { name: 'X', sharesReserved: '1' },
          { name: 'Y', sharesReserved: '1' },
        ],
      });
      await owner.agent
        .put(planPath(gone.id))
        .send({
          name: 'Third',
          sharesReserved: '1000000',
          pools: [{ id: gone.pools[0].id, name: 'X', sharesReserved: '1' }],
        })
        .expect(200);
      const before = await snapshot(owner.agent, org.id, security.id);
      const theirs = await snapshot(other.owner.agent, other.org.id, other.security.id);
      for (const id of [sibling.pools[0].id, foreign.pools[0].id, gone.pools[1].id, MISSING]) {
        const res = await owner.agent
          .put(planPath(plan.id))
          .send({
            name: 'Renamed',
            sharesReserved: '1000000',
            pools: [
              { id: plan.pools[0].id, name: 'Employees', sharesReserved: '1' },
              { id, name: 'Stolen', sharesReserved: '1' },
            ],
          })
          .expect(404);
        expect(res.body).toEqual({ ...ERROR_BODIES[404], message: expect.stringContaining(id) });
      }
      const twice = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: plan.name,
          sharesReserved: '1000000',
          pools: [
            { id: plan.pools[0].id, name: 'Employees', sharesReserved: '1' },
            { id: plan.pools[0].id, name: 'Employees', sharesReserved: '1' },
          ],
        })
        .expect(400);
      expect(twice.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('pools[1].id'),
        field: 'pools[1].id',
      });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      expect(await snapshot(other.owner.agent, other.org.id, other.security.id)).toEqual(theirs);
    });

    it('the class cannot change (400); the same class may be repeated', async () => {
      const { owner, org, security } = await capTable();
      const otherClass = await createSecurity(owner.agent, org.id, {
        name: 'Preferred',
        classType: 'preferred',
        idPrefix: 'PR-',
      });
      const plan = await createPlan(owner.agent, org.id, security.id);
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: 'Renamed',
          security: otherClass.id,
          sharesReserved: '1000000',
          pools: [],
        })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('security'),
        field: 'security',
      });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
    });

    it.each([
      ['name missing', { name: undefined }, 'name', true],
      ['sharesReserved missing', { sharesReserved: undefined }, 'sharesReserved', true],
      [
        'sharesReserved fractional for a corporation',
        { sharesReserved: '1.5' },
        'sharesReserved',
        false,
      ],
      ['pools missing', { pools: undefined }, 'pools', true],
      [
        'a pool id not a UUID',
        { pools: [{ id: 'a', name: 'A', sharesReserved: '1' }] },
        'id',
        false,
      ],
      ['defaultCancellationBehavior null is the default, not an error', null, '', false],
      ['security not a UUID', { security: 'x' }, 'security', false],
    ])('validates the body: %s', async (_label, change, field, missing) => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const body = {
        name: plan.name,
        sharesReserved: '1000000',
        defaultCancellationBehavior: null,
        pools: [{ id: plan.pools[0].id, name: 'Employees', sharesReserved: '600000' }],
      };
      if (change === null) {
        await owner.agent.put(planPath(plan.id)).send(body).expect(200);
        return;
      }
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent
        .put(planPath(plan.id))
        .send({ ...body, ...change })
        .expect(400);
      expect(res.body).toMatchObject({
        error: 'Bad Request',
        ...(missing ? { key: 'invalidFields' } : {}),
        message: expect.stringContaining(field),
      });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
    });

    it('an unknown plan is 404, a deleted one 404, a bad id 400', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const body = { name: 'X', sharesReserved: '1', pools: [] };
      await owner.agent.put(planPath(MISSING)).send(body).expect(404).expect(errorBody(404));
      await owner.agent.put(planPath('plan-1')).send(body).expect(400);
      await owner.agent.delete(planPath(plan.id)).expect(200);
      await owner.agent.put(planPath(plan.id)).send(body).expect(404).expect(errorBody(404));
    });
  });

  describe('POST /v1/plan/:plan/pool', () => {
    const poolPath = (id: string) => `${planPath(id)}/pool`;

    it('adds one pool: 201 with the plan and its pools (the new one last), one pool-created transaction dated today, plan.updated; GET shows it', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const logBefore = await log(org.id);
      const res = await owner.agent
        .post(poolPath(plan.id))
        // An id is not the client's to set: it is left out.
        .send({ name: '  Advisors ', sharesReserved: 300000, id: MISSING })
        .expect(201);
      expect(res.body).toEqual({
        ...plan,
        // By creation: the later request's pool comes after Employees, whatever its name.
        pools: [...plan.pools, freshPool('Advisors', '300000')],
        updated: expect.stringMatching(TIMESTAMP),
      });
      const after = res.body as PlanBody;
      expect(after.pools[1].id).not.toBe(MISSING);
      expect((await owner.agent.get(planPath(plan.id)).expect(200)).body).toEqual(after);
      const listed = (await owner.agent.get(poolsPath(org.id)).expect(200)).body;
      expect(listed.map((x: { id: string }) => x.id)).toEqual(after.pools.map((x) => x.id));

      expect((await log(org.id)).slice(logBefore.length)).toEqual([
        {
          type: 'STOCK_PLAN_POOL_CREATED',
          effectiveDate: today(),
          actor: owner.user.id,
          payload: {
            pool: {
              id: after.pools[1].id,
              planId: plan.id,
              name: 'Advisors',
              sharesReserved: '300000',
            },
          },
        },
      ]);
      expect((await events(org.id)).filter((e) => e.type === 'plan.updated')).toEqual([
        {
          type: 'plan.updated',
          actor: owner.user.id,
          description: 'plan 2024 Equity Incentive Plan: pool Advisors created (300000)',
          data: { object: after, previous_attributes: { pools: plan.pools } },
        },
      ]);
      // Nothing moved in the class: the plan's reservation is what it was.
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body.reservedShares).toBe('1000000');
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
    });

    it('takes an Idempotency-Key: a retry answers the first 201 and adds nothing', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const key = randomUUID();
      const send = () =>
        owner.agent
          .post(poolPath(plan.id))
          .set('Idempotency-Key', key)
          .send({ name: 'Advisors', sharesReserved: '1000' })
          .expect(201);
      const first = await send();
      const retry = await send();
      expect(retry.body).toEqual(first.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      const stored = (await owner.agent.get(planPath(plan.id)).expect(200)).body as PlanBody;
      expect(stored.pools.map((x) => x.name)).toEqual(['Employees', 'Advisors']);
      expect((await log(org.id)).filter((r) => r.type === 'STOCK_PLAN_POOL_CREATED')).toHaveLength(
        2,
      );
    });

    it('keeps the pools within the plan: beyond its unallocated reservation 400 insufficientShares, nothing recorded; exactly the rest fits', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent
        .post(poolPath(plan.id))
        .send({ name: 'Advisors', sharesReserved: '400001' })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('1000001'),
      });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      const ok = await owner.agent
        .post(poolPath(plan.id))
        .send({ name: 'Advisors', sharesReserved: '400000' })
        .expect(201);
      expect(ok.body.pools.map((x: PoolBody) => x.available)).toEqual(['600000', '400000']);
      // Full: not one more share.
      await owner.agent
        .post(poolPath(plan.id))
        .send({ name: 'Directors', sharesReserved: '1' })
        .expect(400)
        .expect((r) => expect(r.body.key).toBe('insufficientShares'));
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
    });

    it('takes fractional quantities for an LLC only', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const res = await owner.agent
        .post(poolPath(plan.id))
        .send({ name: 'A', sharesReserved: '10.25' })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('sharesReserved'),
        field: 'sharesReserved',
      });
      const llc = await owner.agent
        .post('/v1/organization')
        .send({ name: 'Units LLC', type: 'llc' })
        .expect(201);
      const units = await createSecurity(owner.agent, llc.body.id, { authorizedShares: '1000.5' });
      const unitPlan = await createPlan(owner.agent, llc.body.id, units.id, {
        sharesReserved: '100.5',
        pools: [],
      });
      const added = await owner.agent
        .post(poolPath(unitPlan.id))
        .send({ name: 'A', sharesReserved: '10.25' })
        .expect(201);
      expect(added.body.pools).toEqual([freshPool('A', '10.25')]);
    });

    it.each(NAME_AND_RESERVATION_CASES)(
      'refuses %s (400) and records nothing',
      async (_label, change, field, missing) => {
        const { owner, org, security } = await capTable();
        const plan = await createPlan(owner.agent, org.id, security.id);
        const before = await snapshot(owner.agent, org.id, security.id);
        const res = await owner.agent
          .post(poolPath(plan.id))
          .send({ name: 'Advisors', sharesReserved: '100', ...change })
          .expect(400);
        expect(res.body).toEqual(refusal(field, missing));
        expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      },
    );

    it('an unknown or deleted plan is 404, a bad id 400', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id, { pools: [] });
      await owner.agent.delete(planPath(plan.id)).expect(200);
      for (const id of [MISSING, plan.id]) {
        await owner.agent
          .post(poolPath(id))
          .send({ name: 'A', sharesReserved: '1' })
          .expect(404)
          .expect(errorBody(404));
      }
      await owner.agent
        .post(poolPath('not-a-uuid'))
        .send({ name: 'A', sharesReserved: '1' })
        .expect(400);
      expect((await log(org.id)).filter((r) => r.type === 'STOCK_PLAN_POOL_CREATED')).toEqual([]);
    });
  });

  describe('DELETE /v1/plan/:plan', () => {
    it('deletes an empty plan: 200 `{}`, then 404 everywhere; the reservation returns; plan.deleted and the billing member count', async () => {
      const { owner, org, security } = await capTable();
      const holder = await createHolder(owner.agent, org.id);
      await issue(owner.agent, org.id, { member: holder.id, security: security.id, quantity: 10 });
      const plan = await createPlan(owner.agent, org.id, security.id);
      const res = await owner.agent.delete(planPath(plan.id)).expect(200);
      expect(res.body).toEqual({});
      await owner.agent.get(planPath(plan.id)).expect(404).expect(errorBody(404));
      await owner.agent.get(`${planPath(plan.id)}/dashboard`).expect(404);
      await owner.agent.delete(planPath(plan.id)).expect(404);
      expect((await owner.agent.get(plansPath(org.id)).expect(200)).body).toEqual([]);
      expect((await owner.agent.get(poolsPath(org.id)).expect(200)).body).toEqual([]);
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body.reservedShares).toBe('0');
      const [row] = (await log(org.id)).slice(-1);
      expect(row).toEqual({
        type: 'STOCK_PLAN_DELETED',
        effectiveDate: today(),
        actor: owner.user.id,
        payload: { planId: plan.id },
      });
      const deleted = await events(org.id, 'plan.deleted');
      expect(deleted).toEqual([
        {
          type: 'plan.deleted',
          actor: owner.user.id,
          description: 'plan 2024 Equity Incentive Plan: deleted, 1000000 reserved shares released',
          data: { object: plan, previous_attributes: {} },
        },
      ]);
      const billing = await events(org.id, 'billing.member_count_changed');
      expect(billing.slice(-1)).toEqual([
        {
          type: 'billing.member_count_changed',
          actor: owner.user.id,
          description: '1 members with equity',
          data: { object: { organization: org.id, members: 1 }, previous_attributes: {} },
        },
      ]);
    });

    it('refuses a plan with outstanding grants (409), then deletes it once they are gone', async () => {
      const { owner, org, security } = await capTable();
      const holder = await createHolder(owner.agent, org.id);
      const plan = await createPlan(owner.agent, org.id, security.id);
      const granted = await grant(owner, org.id, plan, plan.pools[0].id, holder.id, '100');
      const before = await snapshot(owner.agent, org.id, security.id);
      const res = await owner.agent.delete(planPath(plan.id)).expect(409);
      expect(res.body).toEqual({
        error: 'Conflict',
        message: expect.stringContaining('outstanding grants'),
      });
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      await cancel(owner, org.id, granted, true);
      await owner.agent.delete(planPath(plan.id)).expect(200);
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body.reservedShares).toBe('0');
    });
  });

  describe('figures: GET /v1/plan/:plan/dashboard and GET /v1/captable/:organization/pool', () => {
    it('counts grants, exercises, cancellations returned and retired, and vesting today, per plan and per pool', async () => {
      const { owner, org, security } = await capTable();
      const alice = await createHolder(owner.agent, org.id, 'Alice');
      const bob = await createHolder(owner.agent, org.id, 'Bob');
      const plan = await createPlan(owner.agent, org.id, security.id, {
        pools: [
          { name: 'A', sharesReserved: '600000' },
          { name: 'B', sharesReserved: '300000' },
        ],
      });
      const [a, b] = plan.pools;
      const schedule = await standardSchedule(owner, org.id);
      // Half vested: 24 of 48 months since its start.
      await grant(owner, org.id, plan, a.id, alice.id, '4800', {
        id: schedule,
        vestingStartDate: monthsAgo(24),
      });
      // No schedule: vested at once; 300 exercised.
      const vestedGrant = await grant(owner, org.id, plan, a.id, bob.id, '1000');
      await exercise(owner, org.id, vestedGrant, '300');
      // Starts vesting long after today.
      await grant(owner, org.id, plan, a.id, bob.id, '500', {
        id: schedule,
        vestingStartDate: '2099-01-01',
      });
      // Cancelled: one back to its pool, one retired from the plan.
      await cancel(owner, org.id, await grant(owner, org.id, plan, b.id, alice.id, '2000'), true);
      await cancel(owner, org.id, await grant(owner, org.id, plan, b.id, bob.id, '1000'), false);

      const res = await owner.agent.get(`${planPath(plan.id)}/dashboard`).expect(200);
      expect(res.body).toEqual({
        plan: plan.id,
        asOf: today(),
        reserved: '1000000',
        granted: '9300',
        exercised: '300',
        cancelled: '3000',
        returned: '2000',
        retired: '1000',
        available: '992700',
        outstanding: '6000',
        vested: '3100',
        unvested: '2900',
        pools: [
          {
            pool: a.id,
            name: 'A',
            reserved: '600000',
            granted: '6300',
            exercised: '300',
            cancelled: '0',
            returned: '0',
            available: '593700',
            outstanding: '6000',
            vested: '3100',
            unvested: '2900',
          },
          {
            pool: b.id,
            name: 'B',
            reserved: '300000',
            granted: '3000',
            exercised: '0',
            cancelled: '3000',
            returned: '2000',
            available: '299000',
            outstanding: '0',
            vested: '0',
            unvested: '0',
          },
        ],
      });
      // The plan view and the pool list carry the same pool figures.
      const view = (await owner.agent.get(planPath(plan.id)).expect(200)).body as PlanBody;
      expect(view.pools).toEqual([
        {
          id: a.id,
          name: 'A',
          sharesReserved: '600000',
          granted: '6300',
          exercised: '300',
          cancelled: '0',
          returned: '0',
          available: '593700',
          outstanding: '6000',
        },
        {
          id: b.id,
          name: 'B',
          sharesReserved: '300000',
          granted: '3000',
          exercised: '0',
          cancelled: '3000',
          returned: '2000',
          available: '299000',
          outstanding: '0',
        },
      ]);
      const pools = (await owner.agent.get(poolsPath(org.id)).expect(200)).body;
      expect(pools).toEqual(
        view.pools.map(({ sharesReserved, ...x }) => ({
          ...x,
          plan: plan.id,
          planName: plan.name,
          reserved: sharesReserved,
        })),
      );
      // The class: 300 exercised shares issued, the retired 1000 left the reservation.
      const cls = await owner.agent
        .get(`/v1/organization/${org.id}/security/${security.id}`)
        .expect(200);
      expect(cls.body).toMatchObject({ issuedShares: '300', reservedShares: '998700' });

      // The returned shares can be granted again, the retired ones cannot: B has 299,000 available.
      await expect(grant(owner, org.id, plan, b.id, alice.id, '299001')).rejects.toMatchObject({
        key: 'insufficientShares',
      });
      await grant(owner, org.id, plan, b.id, alice.id, '299000');
      // The plan cannot drop below its pools, nor pool B below what it committed.
      const refused = await owner.agent
        .put(planPath(plan.id))
        .send({
          name: plan.name,
          sharesReserved: '1000000',
          pools: [
            { id: a.id, name: 'A', sharesReserved: '600000' },
            { id: b.id, name: 'B', sharesReserved: '299999' },
          ],
        })
        .expect(400);
      expect(refused.body.key).toBe('insufficientShares');
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
    });

    it('a fresh plan: everything available, nothing outstanding; unpooled shares count as available to the plan', async () => {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      const res = await owner.agent.get(`${planPath(plan.id)}/dashboard`).expect(200);
      expect(res.body).toEqual({
        plan: plan.id,
        asOf: today(),
        reserved: '1000000',
        granted: '0',
        exercised: '0',
        cancelled: '0',
        returned: '0',
        retired: '0',
        available: '1000000',
        outstanding: '0',
        vested: '0',
        unvested: '0',
        pools: [
          {
            pool: plan.pools[0].id,
            name: 'Employees',
            reserved: '600000',
            granted: '0',
            exercised: '0',
            cancelled: '0',
            returned: '0',
            available: '600000',
            outstanding: '0',
            vested: '0',
            unvested: '0',
          },
        ],
      });
      // No query parameters are taken.
      await owner.agent.get(`${planPath(plan.id)}/dashboard?asOf=2024-01-01`).expect(400);
    });

    it('the pool list: the live plans’ pools, plan by plan, oldest first', async () => {
      const { owner, org, security } = await capTable();
      const first = await createPlan(owner.agent, org.id, security.id, {
        name: 'First',
        pools: [
          { name: 'Z', sharesReserved: '10' },
          { name: 'Y', sharesReserved: '20' },
        ],
      });
      const second = await createPlan(owner.agent, org.id, security.id, {
        name: 'Second',
        pools: [{ name: 'A', sharesReserved: '5' }],
      });
      const third = await createPlan(owner.agent, org.id, security.id, { name: 'Third' });
      await owner.agent.delete(planPath(third.id)).expect(200);
      // A pool added later comes after the plan's older ones.
      const grown = await owner.agent
        .put(planPath(first.id))
        .send({
          name: 'First',
          sharesReserved: '1000000',
          pools: [
            ...first.pools.map(({ id, name, sharesReserved }) => ({ id, name, sharesReserved })),
            { name: 'B', sharesReserved: '1' },
          ],
        })
        .expect(200);
      const res = await owner.agent.get(poolsPath(org.id)).expect(200);
      expect(res.body.map((x: { planName: string; name: string }) => [x.planName, x.name])).toEqual(
        [
          ['First', 'Y'],
          ['First', 'Z'],
          ['First', 'B'],
          ['Second', 'A'],
        ],
      );
      expect(res.body[2]).toEqual({
        id: grown.body.pools[2].id,
        plan: first.id,
        planName: 'First',
        name: 'B',
        reserved: '1',
        granted: '0',
        exercised: '0',
        cancelled: '0',
        returned: '0',
        available: '1',
        outstanding: '0',
      });
      const plans = (await owner.agent.get(plansPath(org.id)).expect(200)).body as PlanBody[];
      expect(plans.map((p) => p.id)).toEqual([first.id, second.id]);
    });
  });

  describe('access', () => {
    /** An organization with a plan, and members of each role. */
    async function world() {
      const { owner, org, security } = await capTable();
      const plan = await createPlan(owner.agent, org.id, security.id);
      return { owner, org, security, plan };
    }

    const body = (plan: PlanBody, name = 'Renamed') => ({
      name,
      sharesReserved: plan.sharesReserved,
      pools: plan.pools.map(({ id, name: n, sharesReserved }) => ({ id, name: n, sharesReserved })),
    });

    const newPool = { name: 'Advisors', sharesReserved: '1' };

    it('401 without a session on every route', async () => {
      const { org, security, plan } = await world();
      const answers = await Promise.all([
        t.http
          .post(plansPath(org.id))
          .send({ name: 'P', security: security.id, sharesReserved: '1' }),
        t.http.get(plansPath(org.id)),
        t.http.get(planPath(plan.id)),
        t.http.put(planPath(plan.id)).send(body(plan)),
        t.http.post(`${planPath(plan.id)}/pool`).send(newPool),
        t.http.delete(planPath(plan.id)),
        t.http.get(`${planPath(plan.id)}/dashboard`),
        t.http.get(poolsPath(org.id)),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(ERROR_BODIES[401]);
      }
    });

    it('a Viewer and a Shareholder read (canViewOrganization) but cannot write (403); nothing changes', async () => {
      const { owner, org, security, plan } = await world();
      for (const role of ['Viewer', 'Shareholder']) {
        const member = await memberAgent(t, owner.agent, org.id, role);
        const agent = member.agent;
        expect((await agent.get(plansPath(org.id)).expect(200)).body).toEqual([plan]);
        expect((await agent.get(planPath(plan.id)).expect(200)).body).toEqual(plan);
        await agent.get(`${planPath(plan.id)}/dashboard`).expect(200);
        expect((await agent.get(poolsPath(org.id)).expect(200)).body).toHaveLength(1);
        const before = await snapshot(owner.agent, org.id, security.id);
        await agent
          .post(plansPath(org.id))
          .send({ name: 'P', security: security.id, sharesReserved: '1', pools: [] })
          .expect(403)
          .expect(errorBody(403));
        await agent.put(planPath(plan.id)).send(body(plan)).expect(403).expect(errorBody(403));
        await agent
          .post(`${planPath(plan.id)}/pool`)
          .send(newPool)
          .expect(403)
          .expect(errorBody(403));
        await agent.delete(planPath(plan.id)).expect(403).expect(errorBody(403));
        expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);
      }
    });

    it('an Editor creates, replaces, adds pools to and deletes plans', async () => {
      const { owner, org, security } = await world();
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      const plan = await createPlan(editor.agent, org.id, security.id, { name: 'Editor plan' });
      await editor.agent.put(planPath(plan.id)).send(body(plan, 'Edited')).expect(200);
      await editor.agent
        .post(`${planPath(plan.id)}/pool`)
        .send(newPool)
        .expect(201);
      await editor.agent.delete(planPath(plan.id)).expect(200);
      const [created] = await events(org.id, 'plan.created');
      expect(created).toBeDefined();
      expect((await events(org.id, 'plan.deleted'))[0].actor).toBe(editor.user.id);
    });

    it('PUT, POST .../pool and DELETE need canEditPlan: canEditCapTable alone creates but cannot replace, add a pool or delete (403)', async () => {
      const { owner, org, security, plan } = await world();
      const role = await owner.agent
        .post(`/v1/organization/${org.id}/role`)
        .send({
          name: 'Cap table clerk',
          permissions: ['canViewOrganization', 'canEditCapTable'],
        })
        .expect(201);
      const clerk = await memberAgent(t, owner.agent, org.id, role.body.id);
      const mine = await createPlan(clerk.agent, org.id, security.id, {
        name: 'Clerk plan',
        sharesReserved: '10',
        pools: [],
      });
      const before = await snapshot(owner.agent, org.id, security.id);
      for (const p of [plan, mine]) {
        await clerk.agent.put(planPath(p.id)).send(body(p)).expect(403).expect(errorBody(403));
        await clerk.agent
          .post(`${planPath(p.id)}/pool`)
          .send(newPool)
          .expect(403)
          .expect(errorBody(403));
        await clerk.agent.delete(planPath(p.id)).expect(403).expect(errorBody(403));
      }
      expect(await snapshot(owner.agent, org.id, security.id)).toEqual(before);

      // And canEditPlan alone replaces, adds pools and deletes, but does not create.
      const planner = await owner.agent
        .post(`/v1/organization/${org.id}/role`)
        .send({ name: 'Planner', permissions: ['canViewOrganization', 'canEditPlan'] })
        .expect(201);
      const p2 = await memberAgent(t, owner.agent, org.id, planner.body.id);
      await p2.agent
        .post(plansPath(org.id))
        .send({ name: 'P', security: security.id, sharesReserved: '1', pools: [] })
        .expect(403);
      await p2.agent.put(planPath(mine.id)).send(body(mine, 'Planned')).expect(200);
      await p2.agent
        .post(`${planPath(mine.id)}/pool`)
        .send({ name: 'Planned pool', sharesReserved: '10' })
        .expect(201);
      await p2.agent.delete(planPath(mine.id)).expect(200);
    });

    it('a role without canViewOrganization cannot read plans, the dashboard or the pools (403)', async () => {
      const { owner, org, plan } = await world();
      const none = await owner.agent
        .post(`/v1/organization/${org.id}/role`)
        .send({ name: 'Nothing', permissions: [] })
        .expect(201);
      const nobody = await memberAgent(t, owner.agent, org.id, none.body.id);
      await nobody.agent.get(plansPath(org.id)).expect(403).expect(errorBody(403));
      await nobody.agent.get(planPath(plan.id)).expect(403).expect(errorBody(403));
      await nobody.agent.get(`${planPath(plan.id)}/dashboard`).expect(403);
      await nobody.agent.get(poolsPath(org.id)).expect(403);
    });

    it('another organization’s plan is refused on every route (403) and nothing changes; an unknown id is 404', async () => {
      const victim = await world();
      const attacker = await world();
      const before = await snapshot(victim.owner.agent, victim.org.id, victim.security.id);
      const a = attacker.owner.agent;
      const id = victim.plan.id;
      await a.get(planPath(id)).expect(403).expect(errorBody(403));
      await a
        .get(`${planPath(id)}/dashboard`)
        .expect(403)
        .expect(errorBody(403));
      await a.put(planPath(id)).send(body(victim.plan)).expect(403).expect(errorBody(403));
      // Not a member of the plan's organization: refused by the guard before anything is read.
      await a
        .post(`${planPath(id)}/pool`)
        .send(newPool)
        .expect(403)
        .expect(errorBody(403));
      await a.delete(planPath(id)).expect(403).expect(errorBody(403));
      await a.get(plansPath(victim.org.id)).expect(403);
      await a.get(poolsPath(victim.org.id)).expect(403);
      await a
        .post(plansPath(victim.org.id))
        .send({ name: 'P', security: victim.security.id, sharesReserved: '1', pools: [] })
        .expect(403);
      // The victim's class under the attacker's own organization: 404, nothing reserved.
      await a
        .post(plansPath(attacker.org.id))
        .send({ name: 'P', security: victim.security.id, sharesReserved: '1', pools: [] })
        .expect(404);
      // The victim's pool ids in the attacker's own plan: 404.
      await a
        .put(planPath(attacker.plan.id))
        .send({
          name: 'Mine',
          sharesReserved: '1000000',
          pools: [{ id: victim.plan.pools[0].id, name: 'Stolen', sharesReserved: '1' }],
        })
        .expect(404);
      // The attacker's lists never show the victim's records.
      const lists = JSON.stringify([
        (await a.get(plansPath(attacker.org.id)).expect(200)).body,
        (await a.get(poolsPath(attacker.org.id)).expect(200)).body,
      ]);
      expect(lists).not.toContain(victim.plan.id);
      expect(lists).not.toContain(victim.plan.pools[0].id);
      expect(await snapshot(victim.owner.agent, victim.org.id, victim.security.id)).toEqual(before);

      await a.get(planPath(MISSING)).expect(404).expect(errorBody(404));
      await a.get(`${planPath(MISSING)}/dashboard`).expect(404);
      await a.delete(planPath(MISSING)).expect(404);
      await a
        .post(`${planPath(MISSING)}/pool`)
        .send(newPool)
        .expect(404)
        .expect(errorBody(404));
      await a.get(planPath('not-a-uuid')).expect(400);
    });
  });

  it('a history of creates, PUTs, added pools, grants, cancellations and deletes replays to the same tables (ledger:verify)', async () => {
    const { owner, org, security } = await capTable('100000');
    const holder = await createHolder(owner.agent, org.id);
    const plan = await createPlan(owner.agent, org.id, security.id, {
      sharesReserved: '50000',
      defaultCancellationBehavior: 'retire',
      pools: [
        { name: 'A', sharesReserved: '20000' },
        { name: 'B', sharesReserved: '10000' },
      ],
    });
    const [a] = plan.pools;
    const g = await grant(owner, org.id, plan, a.id, holder.id, '5000');
    await exercise(owner, org.id, g, '1000');
    await cancel(owner, org.id, g, false);
    await owner.agent
      .put(planPath(plan.id))
      .send({
        name: 'Renamed',
        sharesReserved: '60000',
        pools: [
          { id: a.id, name: 'A', sharesReserved: '25000' },
          { name: 'C', sharesReserved: '30000' },
        ],
      })
      .expect(200);
    await owner.agent
      .post(`${planPath(plan.id)}/pool`)
      .send({ name: 'D', sharesReserved: '5000' })
      .expect(201);
    await owner.agent
      .put(planPath(plan.id))
      .send({
        name: 'Renamed',
        sharesReserved: '5000',
        pools: [{ id: a.id, name: 'A', sharesReserved: '5000' }],
      })
      .expect(200);
    const other = await createPlan(owner.agent, org.id, security.id, {
      sharesReserved: '1000',
      pools: [],
    });
    await owner.agent.delete(planPath(other.id)).expect(200);
    await owner.agent.delete(planPath(plan.id)).expect(200);
    const cls = await owner.agent
      .get(`/v1/organization/${org.id}/security/${security.id}`)
      .expect(200);
    expect(cls.body).toMatchObject({ issuedShares: '1000', reservedShares: '0' });
    expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
  });
});
