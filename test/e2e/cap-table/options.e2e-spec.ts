import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { toDecimalString, vestedAsOf, vestingEvents } from '../../../libs/cap-math';
import type { GrantType, HoldingTerms } from '../../../src/cap-table/ledger/incentive-types';
import { LedgerWriter } from '../../../src/cap-table/ledger/ledger-writer';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { ownerWithOrg } from '../../support/world';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = '00000000-0000-4000-8000-00000000abcd';
const TODAY = new Date().toISOString().slice(0, 10);
const TOMORROW = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The standard schedule: 4 years monthly, 1-year cliff. */
const STANDARD = {
  totalPeriods: 48,
  periodLength: 1,
  periodType: 'months' as const,
  cliffPeriods: 12,
  allocationType: 'CUMULATIVE_ROUNDING' as const,
};

interface Grant {
  member: string;
  quantity: string;
  exercisePrice?: string | null;
  grantDate?: string;
  expirationDate?: string | null;
  vestingSchedule?: string | null;
  vestingStartDate?: string | null;
  earlyExercisable?: boolean;
  type?: GrantType;
  pool?: string;
}

describe('options', () => {
  let t: TestApp;
  let db: DataSource;
  let ledger: LedgerWriter;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
    ledger = t.get(LedgerWriter);
  });
  afterAll(() => t.close());

  /**
   * An organization with a class, a plan of it (100,000 reserved) with two pools, the standard
   * vesting schedule, a default legend, a holder with an account (Shareholder role) and one
   * without. Grants are written through the ledger (the transaction `POST /v1/holding` applies).
   */
  async function world() {
    const { owner, org } = await ownerWithOrg(t);
    const security = await createSecurity(owner.agent, org.id, { authorizedShares: '1000000' });
    const legend = (
      await owner.agent
        .post(`/v1/organization/${org.id}/legend`)
        .send({ name: 'Rule 144', text: 'Restricted securities', isDefault: true })
        .expect(201)
    ).body as { id: string };
    const plan = await owner.agent.post(`/v1/organization/${org.id}/plan`).send({
      name: '2022 Equity Incentive Plan',
      security: security.id,
      sharesReserved: '100000',
      boardApprovalDate: '2022-12-01',
      pools: [
        { name: 'Employees', sharesReserved: '60000' },
        { name: 'Advisors', sharesReserved: '40000' },
      ],
    });
    if (plan.status !== 201) throw new Error(`plan: ${plan.status} ${JSON.stringify(plan.body)}`);
    const pools = plan.body.pools as { id: string; name: string }[];
    const schedule = await owner.agent
      .post('/v1/vestingSchedule')
      .send({ organization: org.id, name: '4 years, 1-year cliff', ...STANDARD });
    if (schedule.status !== 201) {
      throw new Error(`schedule: ${schedule.status} ${JSON.stringify(schedule.body)}`);
    }
    const planId = plan.body.id as string;
    const poolId = pools.find((p) => p.name === 'Employees')!.id;
    const otherPoolId = pools.find((p) => p.name === 'Advisors')!.id;
    const scheduleId = schedule.body.id as string;
    const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const bob = await createHolder(owner.agent, org.id, 'Bob');
    return {
      owner,
      org,
      security,
      legend,
      plan: planId,
      pool: poolId,
      otherPool: otherPoolId,
      schedule: scheduleId,
      holder,
      bob,
    };
  }
  type World = Awaited<ReturnType<typeof world>>;

  /** An option grant (TX_EQUITY_COMPENSATION_ISSUANCE, as POST /v1/holding applies it). */
  async function grant(w: World, g: Grant): Promise<string> {
    const id = randomUUID();
    const pool = g.pool ?? w.pool;
    const terms: HoldingTerms = {
      quantity: g.quantity,
      exercisePrice: g.exercisePrice === undefined ? '0.5' : g.exercisePrice,
      grantDate: g.grantDate ?? '2023-01-01',
      expirationDate: g.expirationDate === undefined ? '2033-01-01' : g.expirationDate,
      vestingStartDate:
        g.vestingStartDate === undefined ? (g.grantDate ?? '2023-01-01') : g.vestingStartDate,
      earlyExercisable: g.earlyExercisable ?? false,
    };
    const vestingScheduleId = g.vestingSchedule === undefined ? w.schedule : g.vestingSchedule;
    const scope = { pools: [pool], schedules: vestingScheduleId ? [vestingScheduleId] : [] };
    await ledger.change(w.org.id, w.owner.user.id, scope, async (c) => {
      await c.apply('TX_EQUITY_COMPENSATION_ISSUANCE', terms.grantDate!, {
        holding: {
          id,
          memberId: g.member,
          type: g.type ?? 'option_iso',
          planId: w.plan,
          poolId: pool,
          securityId: w.security.id,
          vestingScheduleId,
          terms,
        },
      });
    });
    return id;
  }

  /** The standard grant of the tests: 4,800 ISOs granted 2023-01-01, 1,200 vested 2024-01-01. */
  const standardGrant = (w: World, member = w.holder.member.id, more: Partial<Grant> = {}) =>
    grant(w, { member, quantity: '4800', ...more });

  const base = (w: World, pool = w.pool) => `/v1/plan/${w.plan}/pool/${pool}/option`;
  const exercisePath = (w: World, option: string) => `${base(w)}/${option}/exercise`;
  const requestPath = (w: World, option: string) => `${base(w)}/${option}/exercise/request`;

  const option = async (w: World, id: string) =>
    (await w.owner.agent.get(`/v1/option/${id}`).expect(200)).body;

  const security = async (w: World) =>
    (await w.owner.agent.get(`/v1/organization/${w.org.id}/security/${w.security.id}`).expect(200))
      .body as { issuedShares: string; reservedShares: string };

  const logCount = async (orgId: string) =>
    Number(
      (
        (await db.query(
          'SELECT count(*)::int AS n FROM equity_transaction WHERE organization_id = $1',
          [orgId],
        )) as { n: number }[]
      )[0].n,
    );

  const events = async (orgId: string) =>
    (await db.query(
      `SELECT type, data, description FROM outbox_event WHERE organization_id = $1 ORDER BY sequence`,
      [orgId],
    )) as { type: string; data: { object: Record<string, unknown> }; description: string }[];

  /** The vested quantity of the standard schedule on `date`, by cap-math. */
  const vestedOn = (quantity: string, start: string, date: string) =>
    toDecimalString(vestedAsOf(vestingEvents(STANDARD, quantity, start), date));

  describe('reading', () => {
    let w: World;
    let standard: string;
    let bobs: string;
    let advisors: string;
    beforeAll(async () => {
      w = await world();
      standard = await standardGrant(w);
      bobs = await grant(w, { member: w.bob.id, quantity: '1000', type: 'option_nso' });
      advisors = await grant(w, {
        member: w.bob.id,
        quantity: '500',
        type: 'rsu',
        exercisePrice: null,
        pool: w.otherPool,
        vestingSchedule: null,
      });
    });

    it('GET /v1/option/:option: the exact view, vesting as of today, pending requests', async () => {
      const request = (
        await w.holder.agent
          .post(requestPath(w, standard))
          .send({ quantity: '100', date: '2024-02-01', paymentMethod: 'wire' })
          .expect(201)
      ).body;
      const res = await w.owner.agent.get(`/v1/option/${standard}`).expect(200);
      const vested = vestedOn('4800', '2023-01-01', TODAY);
      expect(res.body).toEqual({
        id: standard,
        organization: w.org.id,
        member: w.holder.member.id,
        type: 'option_iso',
        plan: w.plan,
        pool: w.pool,
        security: w.security.id,
        quantity: '4800',
        exercisePrice: '0.5',
        grantDate: '2023-01-01',
        expirationDate: '2033-01-01',
        vestingSchedule: w.schedule,
        vestingStartDate: '2023-01-01',
        earlyExercisable: false,
        terminationExerciseWindows: [],
        status: 'active',
        vested,
        exercised: '0',
        cancelled: '0',
        outstanding: '4800',
        exercisable: vested,
        pendingRequests: [
          {
            id: request.id,
            quantity: '100',
            date: '2024-02-01',
            paymentMethod: 'wire',
            status: 'pending',
            created: request.created,
          },
        ],
        created: expect.any(String),
        updated: expect.any(String),
      });
      expect(new Date(res.body.created).toISOString()).toBe(res.body.created);
      // A grant without a schedule is vested in full; an RSU has no exercise price.
      expect(await option(w, advisors)).toMatchObject({
        type: 'rsu',
        pool: w.otherPool,
        exercisePrice: null,
        vestingSchedule: null,
        vested: '500',
        exercisable: '500',
        pendingRequests: [],
      });
      await w.owner.agent.get(`/v1/option/${MISSING}`).expect(404).expect(errorBody(404));
      await w.owner.agent.get('/v1/option/not-a-uuid').expect(400);
    });

    it('GET /v1/option/:option: Viewer allowed, the holder reads their own, another Shareholder 403, 401', async () => {
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.get(`/v1/option/${standard}`).expect(200);
      await w.holder.agent
        .get(`/v1/option/${standard}`)
        .expect(200)
        .expect((r) => expect(r.body.id).toBe(standard));
      await w.holder.agent.get(`/v1/option/${bobs}`).expect(403).expect(errorBody(403));
      const stranger = await memberAgent(t, w.owner.agent, w.org.id, 'Shareholder');
      await stranger.agent.get(`/v1/option/${standard}`).expect(403);
      await t.http.get(`/v1/option/${standard}`).expect(401).expect(errorBody(401));
    });

    it('a holding that is not a grant (a warrant) is no option: 404', async () => {
      const warrant = randomUUID();
      await ledger.change(w.org.id, w.owner.user.id, { securities: [w.security.id] }, (c) =>
        c.apply('TX_WARRANT_ISSUANCE', '2023-01-01', {
          holding: {
            id: warrant,
            memberId: w.bob.id,
            type: 'warrant',
            planId: null,
            poolId: null,
            securityId: w.security.id,
            vestingScheduleId: null,
            terms: { quantity: '100', exercisePrice: '1', grantDate: '2023-01-01' },
          },
        }),
      );
      await w.owner.agent.get(`/v1/option/${warrant}`).expect(404);
      const all = (await w.owner.agent.get(`/v1/organization/${w.org.id}/option`).expect(200)).body;
      expect(all.map((o: { id: string }) => o.id)).not.toContain(warrant);
    });

    it('GET /v1/plan/:plan/pool/:pool/option/:option is deprecated: headers, same view, plan and pool must match', async () => {
      const res = await w.owner.agent.get(`${base(w)}/${standard}`).expect(200);
      expect(res.headers.deprecation).toBe('true');
      expect(res.headers.link).toBe(`</v1/option/${standard}>; rel="successor-version"`);
      expect(res.body).toEqual(await option(w, standard));
      // Another pool of the plan, a missing plan: not this option's.
      await w.owner.agent.get(`${base(w, w.otherPool)}/${standard}`).expect(404);
      await w.owner.agent
        .get(`/v1/plan/${MISSING}/pool/${w.pool}/option/${standard}`)
        .expect(404)
        .expect(errorBody(404));
      // The holder may read their own; Viewer has canViewOptionOld; another Shareholder not.
      await w.holder.agent.get(`${base(w)}/${standard}`).expect(200);
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.get(`${base(w)}/${standard}`).expect(200);
      await w.holder.agent.get(`${base(w)}/${bobs}`).expect(403);
      await t.http.get(`${base(w)}/${standard}`).expect(401);
    });

    it('GET /v1/plan/:plan/pool/:pool/option: the pool’s options oldest first, paged; canViewPool', async () => {
      const res = await w.owner.agent.get(base(w)).expect(200);
      expect(res.body.map((o: { id: string }) => o.id)).toEqual([standard, bobs]);
      expect(res.body[0]).toEqual(await option(w, standard));
      const advisorsList = await w.owner.agent.get(base(w, w.otherPool)).expect(200);
      expect(advisorsList.body.map((o: { id: string }) => o.id)).toEqual([advisors]);
      const page = await w.owner.agent.get(`${base(w)}?limit=1&offset=1`).expect(200);
      expect(page.body.map((o: { id: string }) => o.id)).toEqual([bobs]);
      await w.owner.agent.get(`${base(w)}?limit=0`).expect(400);
      await w.owner.agent.get(`${base(w)}?status=active`).expect(400);
      // The pool must be the plan's.
      await w.owner.agent.get(`/v1/plan/${MISSING}/pool/${w.pool}/option`).expect(404);
      await w.owner.agent.get(`/v1/plan/${w.plan}/pool/${MISSING}/option`).expect(404);
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.get(base(w)).expect(200);
      // A Shareholder has no canViewPool, even with an option in the pool.
      await w.holder.agent.get(base(w)).expect(403).expect(errorBody(403));
      await t.http.get(base(w)).expect(401);
    });

    it('GET /v1/organization/:organization/option: everything for canViewOption, the own for a Shareholder', async () => {
      const all = await w.owner.agent.get(`/v1/organization/${w.org.id}/option`).expect(200);
      expect(all.body.map((o: { id: string }) => o.id)).toEqual([standard, bobs, advisors]);
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      const seen = await viewer.agent.get(`/v1/organization/${w.org.id}/option`).expect(200);
      expect(seen.body).toHaveLength(3);
      const own = await w.holder.agent.get(`/v1/organization/${w.org.id}/option`).expect(200);
      expect(own.body.map((o: { id: string }) => o.id)).toEqual([standard]);
      const stranger = await memberAgent(t, w.owner.agent, w.org.id, 'Shareholder');
      await stranger.agent
        .get(`/v1/organization/${w.org.id}/option`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual([]));
      const page = await w.owner.agent
        .get(`/v1/organization/${w.org.id}/option?limit=2&offset=1`)
        .expect(200);
      expect(page.body.map((o: { id: string }) => o.id)).toEqual([bobs, advisors]);
      await w.owner.agent.get(`/v1/organization/${w.org.id}/option?member=x`).expect(400);
      await t.http.get(`/v1/organization/${w.org.id}/option`).expect(401);
      // Not a member of the organization.
      const outsider = await loggedInAgent(t);
      await outsider.agent.get(`/v1/organization/${w.org.id}/option`).expect(403);
    });

    it('GET /v1/member/:member/options: canViewMember or the member themselves', async () => {
      const bobsOptions = await w.owner.agent.get(`/v1/member/${w.bob.id}/options`).expect(200);
      expect(bobsOptions.body.map((o: { id: string }) => o.id)).toEqual([bobs, advisors]);
      const mine = await w.holder.agent.get(`/v1/member/${w.holder.member.id}/options`).expect(200);
      expect(mine.body.map((o: { id: string }) => o.id)).toEqual([standard]);
      expect(mine.body[0]).toEqual(await option(w, standard));
      await w.holder.agent.get(`/v1/member/${w.bob.id}/options`).expect(403);
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.get(`/v1/member/${w.bob.id}/options`).expect(200);
      await w.owner.agent.get(`/v1/member/${MISSING}/options`).expect(404);
      await t.http.get(`/v1/member/${w.bob.id}/options`).expect(401);
    });

    it('another organization’s records: 403 for a non-member, 404 under this organization’s ids', async () => {
      const other = await world();
      const theirs = await standardGrant(other, other.bob.id);
      // Records of an organization the caller is not a member of.
      await w.owner.agent.get(`/v1/option/${theirs}`).expect(403);
      await w.owner.agent.get(`/v1/member/${other.bob.id}/options`).expect(403);
      await w.owner.agent.get(`/v1/plan/${other.plan}/pool/${other.pool}/option`).expect(403);
      await w.owner.agent.get(`/v1/organization/${other.org.id}/option`).expect(403);
      // Their option under our plan and pool, our option under their plan and pool: 404.
      await other.owner.agent.get(`${base(w)}/${theirs}`).expect(404);
      await w.owner.agent
        .get(`/v1/plan/${other.plan}/pool/${other.pool}/option/${standard}`)
        .expect(404);
      // Their pool under our plan.
      await other.owner.agent.get(`/v1/plan/${w.plan}/pool/${other.pool}/option`).expect(404);
    });

    it('an active option past its expiration date shows expired, with nothing exercisable', async () => {
      const old = await grant(w, {
        member: w.bob.id,
        quantity: '100',
        grantDate: '2014-01-01',
        expirationDate: '2024-01-01',
      });
      expect(await option(w, old)).toMatchObject({
        status: 'expired',
        vested: '100',
        outstanding: '100',
        exercisable: '0',
      });
    });
  });

  it('OpenAPI: every option route has a summary and its errors; the old read is deprecated', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const routes = [
      'get /v1/plan/{plan}/pool/{pool}/option',
      'get /v1/plan/{plan}/pool/{pool}/option/{option}',
      'get /v1/option/{option}',
      'get /v1/organization/{organization}/option',
      'get /v1/member/{member}/options',
      'post /v1/plan/{plan}/pool/{pool}/option/{option}/exercise/request',
      'post /v1/plan/{plan}/pool/{pool}/option/{option}/exercise',
      'delete /v1/plan/{plan}/pool/{pool}/option/{option}/exercise/request/{request}',
    ];
    for (const route of routes) {
      const [method, path] = route.split(' ');
      const op = doc.paths[path]?.[method];
      expect({ route, summary: op?.summary, tags: op?.tags }).toEqual({
        route,
        summary: expect.any(String),
        tags: ['cap table'],
      });
      expect({ route, errors: Object.keys(op.responses).includes('403') }).toEqual({
        route,
        errors: true,
      });
      expect({ route, deprecated: op.deprecated === true }).toEqual({
        route,
        deprecated: route === routes[1],
      });
    }
  });

  describe('exercise', () => {
    it('the standard grant on 2024-01-01: 1,201 → insufficientShares, 1,200 → 201; shares of the plan’s class at the exercise price', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const before = await security(w);
      expect(before).toMatchObject({ issuedShares: '0', reservedShares: '100000' });
      const logBefore = await logCount(w.org.id);

      const tooMany = await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '1201', date: '2024-01-01' })
        .expect(400);
      expect(tooMany.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('1200'),
      });
      expect(await logCount(w.org.id)).toBe(logBefore);
      // Nothing vests before the cliff.
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '1', date: '2023-12-31' })
        .expect(400)
        .expect((r) => expect(r.body.key).toBe('insufficientShares'));

      const res = await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: 1200, date: '2024-01-01', paymentMethod: ' wire ' })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        option: id,
        quantity: '1200',
        shareholding: expect.stringMatching(UUID),
        date: '2024-01-01',
        paymentMethod: 'wire',
        request: null,
      });

      // The shareholding: plan's class, exercise price, default legend, numbered from the prefix.
      const list = await w.owner.agent.get(`/v1/organization/${w.org.id}/shareholding`).expect(200);
      expect(list.body).toEqual([
        expect.objectContaining({
          id: res.body.shareholding,
          member: w.holder.member.id,
          security: w.security.id,
          quantity: '1200',
          pricePerShare: '0.5',
          issueDate: '2024-01-01',
          certificateNumber: 'CS-1',
          status: 'active',
          legendIds: [w.legend.id],
          consideration: 'exercise (wire)',
        }),
      ]);
      // The holder sees their new shares through the shareholding read.
      await w.holder.agent.get(`/v1/shareholding/${res.body.shareholding}`).expect(200);

      // The class: issued up, the plan's reservation down, their sum unchanged.
      const after = await security(w);
      expect(after).toMatchObject({ issuedShares: '1200', reservedShares: '98800' });
      expect(BigInt(after.issuedShares) + BigInt(after.reservedShares)).toBe(
        BigInt(before.issuedShares) + BigInt(before.reservedShares),
      );
      expect(await option(w, id)).toMatchObject({
        status: 'active',
        exercised: '1200',
        outstanding: '3600',
        quantity: '4800',
      });
      // What is left to exercise on 2024-01-01 is nothing; a month later, one more tranche.
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '1', date: '2024-01-01' })
        .expect(400);
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '100', date: '2024-02-01' })
        .expect(201);

      const log = (await db.query(
        `SELECT type, effective_date::text AS "effectiveDate", actor_user_id AS actor, payload
         FROM equity_transaction WHERE organization_id = $1 AND id = $2`,
        [w.org.id, res.body.id],
      )) as { type: string; effectiveDate: string; actor: string; payload: object }[];
      expect(log).toEqual([
        {
          type: 'TX_EQUITY_COMPENSATION_EXERCISE',
          effectiveDate: '2024-01-01',
          actor: w.owner.user.id,
          payload: {
            holdingId: id,
            requestId: null,
            quantity: '1200',
            date: '2024-01-01',
            paymentMethod: 'wire',
            shareholdingId: res.body.shareholding,
            legendIds: [w.legend.id],
          },
        },
      ]);
      const recorded = await events(w.org.id);
      const exercised = recorded.filter((e) => e.type === 'option.exercised');
      expect(exercised).toHaveLength(2);
      expect(exercised[0].data.object).toEqual(res.body);
      expect(exercised[0].description).toMatch(/1200 exercised into shareholding CS-1/);
      const counts = recorded.filter((e) => e.type === 'billing.shareholder_count_changed');
      expect(counts.at(-1)!.data.object).toEqual({ organization: w.org.id, shareholders: 1 });
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });

    it('early exercise allows unvested shares; a fully exercised option is done (409)', async () => {
      const w = await world();
      const id = await standardGrant(w, w.bob.id, { earlyExercisable: true });
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '4800', date: '2023-01-01' })
        .expect(201);
      expect(await option(w, id)).toMatchObject({
        status: 'exercised',
        exercised: '4800',
        outstanding: '0',
        exercisable: '0',
      });
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '1', date: '2024-01-01' })
        .expect(409);
      // Before the grant date nothing is exercised, early or not.
      const later = await standardGrant(w, w.bob.id, {
        earlyExercisable: true,
        grantDate: '2024-01-01',
      });
      await w.owner.agent
        .post(exercisePath(w, later))
        .send({ quantity: '1', date: '2023-12-31' })
        .expect(400);
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });

    it('an expired or cancelled option → 409; the day of expiration still exercises', async () => {
      const w = await world();
      const id = await grant(w, {
        member: w.bob.id,
        quantity: '1000',
        vestingSchedule: null,
        expirationDate: '2024-06-30',
      });
      const logBefore = await logCount(w.org.id);
      const expired = await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '10', date: '2024-07-01' })
        .expect(409);
      expect(expired.body).toEqual({
        error: 'Conflict',
        message: expect.stringMatching(/expired/),
      });
      // Dated today (after the expiration) by default.
      await w.owner.agent.post(exercisePath(w, id)).send({ quantity: '10' }).expect(409);
      expect(await logCount(w.org.id)).toBe(logBefore);
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ quantity: '10', date: '2024-06-30' })
        .expect(201);

      const cancelled = await grant(w, {
        member: w.bob.id,
        quantity: '100',
        vestingSchedule: null,
      });
      await ledger.change(w.org.id, w.owner.user.id, { holdings: [cancelled] }, (c) =>
        c.apply('TX_EQUITY_COMPENSATION_CANCELLATION', '2024-01-01', {
          holdingId: cancelled,
          quantity: '100',
          returnedToPool: true,
          reason: 'terminated',
        }),
      );
      expect(await option(w, cancelled)).toMatchObject({ status: 'cancelled', exercisable: '0' });
      await w.owner.agent
        .post(exercisePath(w, cancelled))
        .send({ quantity: '1', date: '2024-02-01' })
        .expect(409);
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });

    it('validation: 400 and nothing changes', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const logBefore = await logCount(w.org.id);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{}, /quantity is required/],
        [{ quantity: '0', date: '2024-01-01' }, /quantity must be more than 0/],
        [{ quantity: '-5', date: '2024-01-01' }, /quantity/],
        [{ quantity: 'ten', date: '2024-01-01' }, /quantity/],
        [{ quantity: '1.5', date: '2024-01-01' }, /whole number/],
        [{ quantity: '10', date: '2024-02-30' }, /date must be a date/],
        [{ quantity: '10', date: null }, /date/],
        [{ quantity: '10', date: TOMORROW }, /date must not be after today/],
        [{ quantity: '10', date: '2022-12-31' }, /grant date/],
        [{ quantity: '10', date: '2024-01-01', paymentMethod: 'x'.repeat(101) }, /paymentMethod/],
        [{ quantity: '10', date: '2024-01-01', requestId: 'abc' }, /requestId/],
      ];
      for (const [body, message] of cases) {
        const res = await w.owner.agent.post(exercisePath(w, id)).send(body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.message).toMatch(message);
      }
      const missing = await w.owner.agent.post(exercisePath(w, id)).send({});
      expect(missing.body).toMatchObject({ error: 'Bad Request', key: 'invalidFields' });
      await w.owner.agent
        .post(`${base(w)}/not-a-uuid/exercise`)
        .send({ quantity: '1', date: '2024-01-01' })
        .expect(400);
      expect(await logCount(w.org.id)).toBe(logBefore);
      expect(await option(w, id)).toMatchObject({ exercised: '0', pendingRequests: [] });
    });

    it('permissions: Editor exercises; Viewer and the holder (Shareholder) 403; 401', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const body = { quantity: '100', date: '2024-01-01' };
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.post(exercisePath(w, id)).send(body).expect(403).expect(errorBody(403));
      // The holder may only ask.
      await w.holder.agent.post(exercisePath(w, id)).send(body).expect(403);
      await t.http.post(exercisePath(w, id)).send(body).expect(401).expect(errorBody(401));
      expect(await option(w, id)).toMatchObject({ exercised: '0' });
      const editor = await memberAgent(t, w.owner.agent, w.org.id, 'Editor');
      await editor.agent.post(exercisePath(w, id)).send(body).expect(201);
      expect(await option(w, id)).toMatchObject({ exercised: '100' });
    });

    it('another organization’s option, plan or pool: 404/403 and nothing changes', async () => {
      const w = await world();
      const other = await world();
      const ours = await standardGrant(w);
      const theirs = await standardGrant(other, other.bob.id);
      const body = { quantity: '100', date: '2024-01-01' };
      const logs = [await logCount(w.org.id), await logCount(other.org.id)];
      // Our option under their plan and pool; another pool of our plan.
      await w.owner.agent
        .post(`/v1/plan/${other.plan}/pool/${other.pool}/option/${ours}/exercise`)
        .send(body)
        .expect(404);
      await w.owner.agent
        .post(`${base(w, w.otherPool)}/${ours}/exercise`)
        .send(body)
        .expect(404);
      // Their option under our plan and pool (we are not members there).
      await w.owner.agent.post(exercisePath(w, theirs)).send(body).expect(403);
      // They, owners of their option, address it under our plan and pool.
      await other.owner.agent.post(exercisePath(w, theirs)).send(body).expect(404);
      await other.owner.agent.post(requestPath(w, theirs)).send(body).expect(404);
      expect([await logCount(w.org.id), await logCount(other.org.id)]).toEqual(logs);
      expect(await option(w, ours)).toMatchObject({ exercised: '0' });
      expect(await option(other, theirs)).toMatchObject({ exercised: '0', pendingRequests: [] });
    });

    it('20 parallel exercises of 100 out of 1,000 exercisable: exactly 10 succeed (the grant is locked)', async () => {
      const w = await world();
      // 2,000 on the standard schedule: 1,000 vested after two years.
      const id = await standardGrant(w, w.bob.id, { quantity: '2000' });
      expect(vestedOn('2000', '2023-01-01', '2025-01-01')).toBe('1000');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          w.owner.agent.post(exercisePath(w, id)).send({ quantity: '100', date: '2025-01-01' }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status).toBe(400);
        expect(a.body.key).toBe('insufficientShares');
      }
      expect(await option(w, id)).toMatchObject({
        exercised: '1000',
        outstanding: '1000',
        status: 'active',
      });
      const holdings = (
        await w.owner.agent.get(`/v1/organization/${w.org.id}/shareholding`).expect(200)
      ).body as { quantity: string; certificateNumber: string }[];
      expect(holdings).toHaveLength(10);
      expect(new Set(holdings.map((h) => h.certificateNumber)).size).toBe(10);
      expect(await security(w)).toMatchObject({ issuedShares: '1000', reservedShares: '99000' });
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('exercise requests', () => {
    it('the holder asks (201), cannot exercise (403); an editor approves with requestId (201); a second approval → 409', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const res = await w.holder.agent
        .post(requestPath(w, id))
        .send({ quantity: '600', date: '2024-01-01', paymentMethod: 'check' })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        option: id,
        quantity: '600',
        date: '2024-01-01',
        paymentMethod: 'check',
        status: 'pending',
        created: expect.any(String),
      });
      const requested = (await events(w.org.id)).filter(
        (e) => e.type === 'option.exercise_requested',
      );
      expect(requested).toHaveLength(1);
      expect(requested[0].data.object).toEqual(res.body);
      const [row] = (await db.query(
        'SELECT requested_by_user_id AS "by", status FROM exercise_request WHERE id = $1',
        [res.body.id],
      )) as { by: string; status: string }[];
      expect(row).toEqual({ by: w.holder.user.id, status: 'pending' });

      await w.holder.agent
        .post(exercisePath(w, id))
        .send({ quantity: '600', requestId: res.body.id })
        .expect(403);

      const editor = await memberAgent(t, w.owner.agent, w.org.id, 'Editor');
      const approved = await editor.agent
        .post(exercisePath(w, id))
        .send({ requestId: res.body.id })
        .expect(201);
      // The request's quantity, date and payment method.
      expect(approved.body).toEqual({
        id: expect.stringMatching(UUID),
        option: id,
        quantity: '600',
        shareholding: expect.stringMatching(UUID),
        date: '2024-01-01',
        paymentMethod: 'check',
        request: res.body.id,
      });
      const [after] = (await db.query('SELECT status FROM exercise_request WHERE id = $1', [
        res.body.id,
      ])) as { status: string }[];
      expect(after.status).toBe('approved');
      expect(await option(w, id)).toMatchObject({ exercised: '600', pendingRequests: [] });

      const again = await editor.agent
        .post(exercisePath(w, id))
        .send({ requestId: res.body.id })
        .expect(409);
      expect(again.body.message).toMatch(/approved/);
      // Rejecting an approved request is a conflict too.
      await editor.agent.delete(`${requestPath(w, id)}/${res.body.id}`).expect(409);
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });

    it('an approval may exercise another quantity than asked; the request must be this option’s', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const otherOption = await standardGrant(w, w.bob.id);
      const request = (
        await w.holder.agent
          .post(requestPath(w, id))
          .send({ quantity: '1000', date: '2024-01-01' })
          .expect(201)
      ).body;
      // Another option's path, a missing request: 404.
      await w.owner.agent
        .post(exercisePath(w, otherOption))
        .send({ requestId: request.id })
        .expect(404);
      await w.owner.agent
        .post(exercisePath(w, id))
        .send({ requestId: MISSING, quantity: '1', date: '2024-01-01' })
        .expect(404);
      const partial = await w.owner.agent
        .post(exercisePath(w, id))
        .send({ requestId: request.id, quantity: '400', date: '2024-03-01' })
        .expect(201);
      expect(partial.body).toMatchObject({
        quantity: '400',
        date: '2024-03-01',
        paymentMethod: null,
        request: request.id,
      });
      expect(await option(w, id)).toMatchObject({ exercised: '400', pendingRequests: [] });
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });

    it('a request is checked like an exercise: insufficientShares, expired 409, validation, today by default', async () => {
      const w = await world();
      const id = await standardGrant(w);
      await w.holder.agent
        .post(requestPath(w, id))
        .send({ quantity: '1201', date: '2024-01-01' })
        .expect(400)
        .expect((r) => expect(r.body.key).toBe('insufficientShares'));
      await w.holder.agent.post(requestPath(w, id)).send({}).expect(400);
      await w.holder.agent
        .post(requestPath(w, id))
        .send({ quantity: '10', date: TOMORROW })
        .expect(400);
      await w.holder.agent
        .post(requestPath(w, id))
        .send({ quantity: '10', paymentMethod: '' })
        .expect(400);
      const dated = await w.holder.agent
        .post(requestPath(w, id))
        .send({ quantity: '10' })
        .expect(201);
      expect(dated.body).toMatchObject({ date: TODAY, paymentMethod: null });

      const old = await grant(w, {
        member: w.holder.member.id,
        quantity: '100',
        vestingSchedule: null,
        expirationDate: '2024-01-01',
      });
      await w.holder.agent.post(requestPath(w, old)).send({ quantity: '10' }).expect(409);
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });

    it('who may ask: the holder, an editor on their behalf; not a Viewer, another Shareholder, nor anonymous', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const body = { quantity: '100', date: '2024-01-01' };
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.post(requestPath(w, id)).send(body).expect(403);
      const stranger = await memberAgent(t, w.owner.agent, w.org.id, 'Shareholder');
      await stranger.agent.post(requestPath(w, id)).send(body).expect(403);
      await t.http.post(requestPath(w, id)).send(body).expect(401);
      await w.owner.agent.post(requestPath(w, id)).send(body).expect(201);
      // The holder, under another pool of the plan: not there.
      await w.holder.agent
        .post(`${base(w, w.otherPool)}/${id}/exercise/request`)
        .send(body)
        .expect(404);
      expect((await option(w, id)).pendingRequests).toHaveLength(1);
    });

    it('DELETE .../exercise/request/:request rejects a pending request (200, the request now rejected); again → 409; only editors; this option’s only', async () => {
      const w = await world();
      const id = await standardGrant(w);
      const otherOption = await standardGrant(w, w.bob.id);
      const request = (
        await w.holder.agent
          .post(requestPath(w, id))
          .send({ quantity: '100', date: '2024-01-01' })
          .expect(201)
      ).body;
      const path = `${requestPath(w, id)}/${request.id}`;
      // The holder cannot reject (or withdraw) it; a Viewer neither.
      await w.holder.agent.delete(path).expect(403);
      const viewer = await memberAgent(t, w.owner.agent, w.org.id, 'Viewer');
      await viewer.agent.delete(path).expect(403);
      await t.http.delete(path).expect(401);
      // Under another option, or a missing request: 404.
      await w.owner.agent.delete(`${requestPath(w, otherOption)}/${request.id}`).expect(404);
      await w.owner.agent.delete(`${requestPath(w, id)}/${MISSING}`).expect(404);
      await w.owner.agent
        .delete(
          `/v1/plan/${w.plan}/pool/${w.otherPool}/option/${id}/exercise/request/${request.id}`,
        )
        .expect(404);
      // Another organization's owner.
      const other = await world();
      await other.owner.agent.delete(path).expect(403);

      const res = await w.owner.agent.delete(path).expect(200);
      expect(res.body).toEqual({ ...request, status: 'rejected' });
      const [row] = (await db.query('SELECT status FROM exercise_request WHERE id = $1', [
        request.id,
      ])) as { status: string }[];
      expect(row.status).toBe('rejected');
      expect((await option(w, id)).pendingRequests).toEqual([]);
      const rejected = (await events(w.org.id)).filter(
        (e) => e.type === 'option.exercise_request_rejected',
      );
      expect(rejected).toHaveLength(1);
      expect(rejected[0].data.object).toMatchObject({ id: request.id, status: 'rejected' });

      // The events land in the activity log with their descriptions.
      await eventually(async () => {
        const activity = await w.owner.agent.get(`/v1/organization/${w.org.id}/action`).expect(200);
        const descriptions = activity.body.map((a: { description: string }) => a.description);
        expect(descriptions).toEqual(
          expect.arrayContaining([
            `option_iso ${id}: exercise of 100 requested for 2024-01-01`,
            `option_iso ${id}: exercise request of 100 for 2024-01-01 rejected`,
          ]),
        );
        return true;
      });

      await w.owner.agent.delete(path).expect(409);
      await w.owner.agent.post(exercisePath(w, id)).send({ requestId: request.id }).expect(409);
      expect(await option(w, id)).toMatchObject({ exercised: '0' });
      expect(await verifyLedger(t, w.org.id)).toMatchObject({ code: 0 });
    });
  });
});
