import { DataSource } from 'typeorm';
import {
  accruedInterest,
  STANDARD_VESTING_SCHEDULE,
  toDecimalString,
  vestedAsOf,
  vestingEvents,
} from '../../../libs/cap-math';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import {
  createHolding,
  createPlan,
  createSchedule,
  getPlan,
  holdingCount,
  incentiveTable,
  ISO_DATE_TIME,
  ledgerLog,
  MISSING,
  noteBody,
  optionBody,
  outbox,
  safeBody,
  todayUtc,
  UUID,
  warrantBody,
} from './holdings-fixtures';

describe('POST /v1/holding', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  describe('shapes per type', () => {
    it('grants an ISO option from a pool: the shape, vesting as of today, the log, the pool, events and billing', async () => {
      const x = await incentiveTable(t);
      const schedule = await createSchedule(x.owner.agent, x.org.id);
      const grantDate = '2023-03-15';
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(
          optionBody(x, {
            quantity: '4800',
            exercisePrice: '0.50',
            grantDate,
            expirationDate: '2033-03-15',
            vestingSchedule: schedule.id,
            terminationExerciseWindows: [
              { reason: 'VOLUNTARY_OTHER', period: 90, periodType: 'days' },
              { reason: 'INVOLUNTARY_DEATH', period: 1, periodType: 'years' },
            ],
          }),
        )
        .expect(201);
      const vested = toDecimalString(
        vestedAsOf(vestingEvents(STANDARD_VESTING_SCHEDULE, '4800', grantDate), todayUtc()),
      );
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: x.org.id,
        member: x.alice.id,
        type: 'option_iso',
        status: 'active',
        plan: x.plan.id,
        pool: x.pool.id,
        security: x.security.id,
        quantity: '4800',
        exercisePrice: '0.5',
        grantDate,
        expirationDate: '2033-03-15',
        vestingSchedule: schedule.id,
        vestingStartDate: grantDate,
        earlyExercisable: false,
        terminationExerciseWindows: [
          { reason: 'VOLUNTARY_OTHER', period: 90, periodType: 'days' },
          { reason: 'INVOLUNTARY_DEATH', period: 1, periodType: 'years' },
        ],
        vested,
        exercised: '0',
        cancelled: '0',
        outstanding: '4800',
        exercisable: vested,
        created: expect.stringMatching(ISO_DATE_TIME),
        updated: expect.stringMatching(ISO_DATE_TIME),
      });
      // The standard schedule: a quarter at the cliff, then 1/48 a month; whole months to today.
      expect(Number(vested)).toBeGreaterThanOrEqual(1200);

      const issuance = (await ledgerLog(db, x.org.id)).find(
        (e) => e.type === 'TX_EQUITY_COMPENSATION_ISSUANCE',
      )!;
      expect(issuance).toMatchObject({
        effectiveDate: grantDate,
        actor: x.owner.user.id,
        payload: {
          holding: {
            id: res.body.id,
            memberId: x.alice.id,
            type: 'option_iso',
            planId: x.plan.id,
            poolId: x.pool.id,
            securityId: x.security.id,
            vestingScheduleId: schedule.id,
            terms: { quantity: '4800', exercisePrice: '0.5', grantDate },
          },
        },
      });
      const pool = (await getPlan(x.owner.agent, x.plan.id)).pools[0];
      expect(pool).toMatchObject({ granted: '4800', available: '45200' });

      const events = await outbox(db, x.org.id);
      const created = events.find((e) => e.type === 'holding.created')!;
      expect(created.data.object).toEqual(res.body);
      expect(created.description).toBe('ISO option grant of 4800 shares to Alice');
      const billing = events.filter((e) => e.type === 'billing.member_count_changed');
      expect(billing.at(-1)!.data.object).toEqual({ organization: x.org.id, members: 1 });

      await x.owner.agent
        .get(`/v1/holding/${res.body.id}`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual(res.body));
    });

    it('an RSU may leave out the exercise price; option types, SARs and warrants need one', async () => {
      const x = await incentiveTable(t);
      const rsu = await createHolding(
        x.owner.agent,
        optionBody(x, { type: 'rsu', exercisePrice: undefined, quantity: '100' }),
      );
      expect(rsu).toMatchObject({ type: 'rsu', exercisePrice: null, vested: '100' });
      for (const type of ['option_iso', 'option_nso', 'option', 'sar']) {
        const res = await x.owner.agent
          .post('/v1/holding')
          .send(optionBody(x, { type, exercisePrice: undefined }))
          .expect(400);
        expect(res.body).toMatchObject({
          key: 'invalidFields',
          message: expect.stringContaining('exercisePrice is required'),
        });
      }
      for (const type of ['option_nso', 'option', 'sar']) {
        const ok = await createHolding(x.owner.agent, optionBody(x, { type, quantity: '10' }));
        expect(ok.type).toBe(type);
      }
    });

    it('issues a warrant on a class: no plan, pool or vesting; exercisable in full', async () => {
      const x = await incentiveTable(t);
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(warrantBody(x, { expirationDate: '2099-01-01', exercisePrice: '2.000' }))
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: x.org.id,
        member: x.alice.id,
        type: 'warrant',
        status: 'active',
        security: x.security.id,
        quantity: '1000',
        exercisePrice: '2',
        grantDate: '2024-01-01',
        expirationDate: '2099-01-01',
        exercised: '0',
        cancelled: '0',
        outstanding: '1000',
        exercisable: '1000',
        created: expect.stringMatching(ISO_DATE_TIME),
        updated: expect.stringMatching(ISO_DATE_TIME),
      });
      const log = await ledgerLog(db, x.org.id);
      expect(log.at(-1)).toMatchObject({
        type: 'TX_WARRANT_ISSUANCE',
        effectiveDate: '2024-01-01',
        payload: { holding: { securityId: x.security.id, planId: null, poolId: null } },
      });
    });

    it('issues a convertible note: terms, principal outstanding and the interest owed today', async () => {
      const x = await incentiveTable(t);
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(
          noteBody(x, {
            principal: '100000.00',
            valuationCap: '5000000',
            discount: '20',
            currency: 'eur',
          }),
        )
        .expect(201);
      const owed = accruedInterest({
        principal: '100000',
        annualRate: '0.06',
        interestType: 'simple',
        dayCount: '30/360',
        startDate: '2024-01-01',
        endDate: todayUtc(),
      });
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: x.org.id,
        member: x.alice.id,
        type: 'convertible_note',
        status: 'active',
        principal: '100000',
        currency: 'EUR',
        interestRate: '6',
        interestType: 'simple',
        dayCount: '30/360',
        issueDate: '2024-01-01',
        maturityDate: '2026-01-01',
        valuationCap: '5000000',
        discount: '20',
        principalOutstanding: '100000',
        accruedInterest: toDecimalString(owed.toDecimalPlaces(10)),
        interestPaid: '0',
        conversion: null,
        created: expect.stringMatching(ISO_DATE_TIME),
        updated: expect.stringMatching(ISO_DATE_TIME),
      });
      expect(Number(res.body.accruedInterest)).toBeGreaterThan(0);
      const log = await ledgerLog(db, x.org.id);
      expect(log.at(-1)).toMatchObject({
        type: 'TX_CONVERTIBLE_ISSUANCE',
        effectiveDate: '2024-01-01',
      });
    });

    it('issues a SAFE: the organization’s currency and no MFN or pro rata by default', async () => {
      const x = await incentiveTable(t);
      const res = await x.owner.agent.post('/v1/holding').send(safeBody(x)).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: x.org.id,
        member: x.alice.id,
        type: 'safe',
        status: 'active',
        amount: '100000',
        currency: 'USD',
        safeType: 'post_money',
        valuationCap: '4000000',
        discount: null,
        mfn: false,
        proRata: false,
        issueDate: '2024-01-01',
        conversion: null,
        created: expect.stringMatching(ISO_DATE_TIME),
        updated: expect.stringMatching(ISO_DATE_TIME),
      });
      const both = await createHolding(
        x.owner.agent,
        safeBody(x, {
          safeType: 'pre_money',
          valuationCap: null,
          discount: '15',
          mfn: true,
          proRata: true,
        }),
      );
      expect(both).toMatchObject({
        safeType: 'pre_money',
        valuationCap: null,
        discount: '15',
        mfn: true,
        proRata: true,
      });
    });
  });

  describe('validation (400, nothing created)', () => {
    it('refuses fields of another type, naming them', async () => {
      const x = await incentiveTable(t);
      const cases: [Record<string, unknown>, RegExp][] = [
        [optionBody(x, { principal: '1000' }), /principal does not apply to an option_iso/],
        [optionBody(x, { security: x.security.id }), /security does not apply to an option_iso/],
        [warrantBody(x, { plan: x.plan.id }), /plan does not apply to a warrant/],
        [
          warrantBody(x, { vestingStartDate: '2024-01-01', earlyExercisable: true }),
          /vestingStartDate, earlyExercisable do not apply to a warrant/,
        ],
        [noteBody(x, { amount: '5', safeType: 'post_money' }), /amount, safeType do not apply/],
        [safeBody(x, { interestRate: '5' }), /interestRate does not apply to a safe/],
        [safeBody(x, { quantity: '10' }), /quantity does not apply to a safe/],
      ];
      for (const [body, message] of cases) {
        const res = await x.owner.agent.post('/v1/holding').send(body).expect(400);
        expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(message) });
      }
      expect(await holdingCount(db, x.org.id)).toBe(0);
    });

    it('requires the fields of each type (`invalidFields`)', async () => {
      const x = await incentiveTable(t);
      const cases: [Record<string, unknown>, string[]][] = [
        [optionBody(x, { plan: undefined, grantDate: undefined }), ['plan', 'grantDate']],
        [optionBody(x, { quantity: undefined }), ['quantity']],
        [warrantBody(x, { security: undefined, exercisePrice: undefined }), ['security']],
        [
          noteBody(x, { interestType: undefined, dayCount: undefined, maturityDate: undefined }),
          ['interestType', 'dayCount', 'maturityDate'],
        ],
        [safeBody(x, { safeType: undefined, amount: undefined }), ['amount', 'safeType']],
      ];
      for (const [body, fields] of cases) {
        const res = await x.owner.agent.post('/v1/holding').send(body).expect(400);
        expect(res.body.key).toBe('invalidFields');
        for (const f of fields) expect(res.body.message).toContain(`${f} is required`);
      }
      const noType = await x.owner.agent
        .post('/v1/holding')
        .send({ ...safeBody(x), type: undefined })
        .expect(400);
      expect(noType.body.key).toBe('invalidFields');
      const noOrganization = await x.owner.agent
        .post('/v1/holding')
        .send({ ...safeBody(x), organization: undefined })
        .expect(400);
      expect(noOrganization.body).toMatchObject({ key: 'invalidFields' });
      expect(await holdingCount(db, x.org.id)).toBe(0);
    });

    it('checks values: enums, fractions, dates, decimals, whole shares', async () => {
      const x = await incentiveTable(t);
      const cases: [Record<string, unknown>, RegExp][] = [
        [safeBody(x, { type: 'bond' }), /type must be one of/],
        [noteBody(x, { interestType: 'daily' }), /interestType must be one of/],
        [noteBody(x, { dayCount: 'actual/360' }), /dayCount must be one of/],
        [safeBody(x, { safeType: 'mfn' }), /safeType must be one of/],
        [noteBody(x, { interestRate: '150' }), /interestRate is a percent/],
        [noteBody(x, { discount: '100' }), /discount is a percent below 100/],
        [safeBody(x, { discount: '120' }), /discount is a percent below 100/],
        [safeBody(x, { valuationCap: '0' }), /valuationCap must be more than 0/],
        [safeBody(x, { amount: '-5' }), /amount must be more than 0/],
        [noteBody(x, { maturityDate: '2023-12-31' }), /maturityDate must not be before issueDate/],
        [
          optionBody(x, { expirationDate: '2018-12-31' }),
          /expirationDate must not be before grantDate/,
        ],
        [optionBody(x, { grantDate: '2019-02-30' }), /grantDate must be a date/],
        [optionBody(x, { quantity: '10.5' }), /quantity must be a whole number/],
        [optionBody(x, { quantity: '0' }), /quantity must be more than 0/],
        [safeBody(x, { currency: 'EURO' }), /currency must be a valid ISO4217/],
        [safeBody(x, { mfn: 'yes' }), /mfn must be a boolean/],
        [
          optionBody(x, {
            terminationExerciseWindows: [{ reason: 'FIRED', period: 90, periodType: 'days' }],
          }),
          /terminationExerciseWindows\.0\.reason must be one of/,
        ],
        [
          optionBody(x, {
            terminationExerciseWindows: [
              { reason: 'VOLUNTARY_OTHER', period: 90, periodType: 'days' },
              { reason: 'VOLUNTARY_OTHER', period: 30, periodType: 'days' },
            ],
          }),
          /VOLUNTARY_OTHER twice/,
        ],
        [{ ...safeBody(x), member: 'alice' }, /member must be a UUID/],
      ];
      for (const [body, message] of cases) {
        const res = await x.owner.agent.post('/v1/holding').send(body);
        expect([res.status, res.body.message]).toEqual([400, expect.stringMatching(message)]);
      }
      expect(await holdingCount(db, x.org.id)).toBe(0);
    });

    it('a whole-share vesting allocation needs a whole quantity, also in an LLC', async () => {
      const x = await incentiveTable(t, 'llc');
      const whole = await createSchedule(x.owner.agent, x.org.id);
      const fractional = await createSchedule(x.owner.agent, x.org.id, {
        name: 'Fractional',
        allocationType: 'FRACTIONAL',
      });
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(optionBody(x, { quantity: '100.5', vestingSchedule: whole.id }))
        .expect(400);
      expect(res.body.message).toMatch(/CUMULATIVE_ROUNDING allocates whole shares/);
      expect(await holdingCount(db, x.org.id)).toBe(0);
      const ok = await createHolding(
        x.owner.agent,
        optionBody(x, { quantity: '100.5', vestingSchedule: fractional.id }),
      );
      expect(ok).toMatchObject({ quantity: '100.5', vested: '100.5' });
      // Without a schedule an LLC's grant may be fractional too.
      await createHolding(x.owner.agent, optionBody(x, { quantity: '0.25' }));
    });

    it('a plan’s own schedule serves only that plan', async () => {
      const x = await incentiveTable(t);
      const other = await createPlan(x.owner.agent, x.org.id, x.security.id, {
        name: 'Other plan',
        sharesReserved: '1000',
        pools: [{ name: 'P', sharesReserved: '1000' }],
      });
      const ofOther = await createSchedule(x.owner.agent, x.org.id, { plan: other.id });
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(optionBody(x, { vestingSchedule: ofOther.id }))
        .expect(400);
      expect(res.body.message).toMatch(/schedule of another plan/);
    });
  });

  describe('invariants', () => {
    it('a grant beyond its pool’s available shares is 400 insufficientShares; exactly the rest fits', async () => {
      const x = await incentiveTable(t);
      await createHolding(x.owner.agent, optionBody(x, { quantity: '30000' }));
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(optionBody(x, { quantity: '20001' }))
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: expect.stringContaining('20000'),
      });
      expect(await holdingCount(db, x.org.id)).toBe(1);
      await createHolding(x.owner.agent, optionBody(x, { quantity: '20000' }));
      expect((await getPlan(x.owner.agent, x.plan.id)).pools[0]).toMatchObject({
        granted: '50000',
        available: '0',
      });
    });

    it('concurrent grants never take more than the pool has: 10 × 10,000 from 50,000 → exactly 5', async () => {
      const x = await incentiveTable(t);
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          x.owner.agent.post('/v1/holding').send(optionBody(x, { quantity: '10000' })),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 201, 400, 400, 400, 400, 400]);
      expect(results.filter((r) => r.status === 400).map((r) => r.body.key)).toEqual(
        Array(5).fill('insufficientShares'),
      );
      expect((await getPlan(x.owner.agent, x.plan.id)).pools[0]).toMatchObject({
        granted: '50000',
        available: '0',
      });
      expect(await holdingCount(db, x.org.id)).toBe(5);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('the pool must be the plan’s (404), and nothing is created', async () => {
      const x = await incentiveTable(t);
      const other = await createPlan(x.owner.agent, x.org.id, x.security.id, {
        name: 'Other plan',
        sharesReserved: '1000',
        pools: [{ name: 'P', sharesReserved: '1000' }],
      });
      const res = await x.owner.agent
        .post('/v1/holding')
        .send(optionBody(x, { pool: other.pools[0].id }))
        .expect(404);
      expect(res.body.message).toMatch(/not a pool of plan/);
      expect(await holdingCount(db, x.org.id)).toBe(0);
    });

    it('another organization’s member, plan, pool, schedule or class → 404 and nothing created', async () => {
      const x = await incentiveTable(t);
      const y = await incentiveTable(t);
      const theirSchedule = await createSchedule(y.owner.agent, y.org.id);
      const cases = [
        optionBody(x, { member: y.alice.id }),
        optionBody(x, { plan: y.plan.id }),
        optionBody(x, { pool: y.pool.id }),
        optionBody(x, { plan: y.plan.id, pool: y.pool.id }),
        optionBody(x, { vestingSchedule: theirSchedule.id }),
        warrantBody(x, { security: y.security.id }),
        optionBody(x, { member: MISSING }),
      ];
      for (const body of cases) {
        await x.owner.agent.post('/v1/holding').send(body).expect(404).expect(errorBody(404));
      }
      // x's owner is not a member of y: addressing y's organization is 403.
      await x.owner.agent
        .post('/v1/holding')
        .send(optionBody(y))
        .expect(403)
        .expect(errorBody(403));
      expect(await holdingCount(db, x.org.id)).toBe(0);
      expect(await holdingCount(db, y.org.id)).toBe(0);
    });

    it('a removed member cannot receive a holding (404)', async () => {
      const x = await incentiveTable(t);
      const bob = await createHolder(x.owner.agent, x.org.id, 'Bob');
      await x.owner.agent.delete(`/v1/organization/${x.org.id}/member/${bob.id}`).expect(200);
      await x.owner.agent
        .post('/v1/holding')
        .send(safeBody(x, { member: bob.id }))
        .expect(404);
    });
  });

  describe('access', () => {
    it('401 without a session; 403 without canEdit (Viewer, Shareholder); an Editor may', async () => {
      const x = await incentiveTable(t);
      await t.http.post('/v1/holding').send(safeBody(x)).expect(401).expect(errorBody(401));
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      const holder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      await viewer.agent.post('/v1/holding').send(safeBody(x)).expect(403).expect(errorBody(403));
      await holder.agent
        .post('/v1/holding')
        .send(safeBody(x, { member: holder.member.id }))
        .expect(403);
      expect(await holdingCount(db, x.org.id)).toBe(0);
      const editor = await memberAgent(t, x.owner.agent, x.org.id, 'Editor');
      const res = await editor.agent.post('/v1/holding').send(optionBody(x)).expect(201);
      expect((await ledgerLog(db, x.org.id)).at(-1)!.actor).toBe(editor.user.id);
      // Viewers read holdings; they cannot change them.
      await viewer.agent.get(`/v1/holding/${res.body.id}`).expect(200);
    });

    it('an outsider may not create in an organization they are not a member of', async () => {
      const x = await incentiveTable(t);
      const outsider = await loggedInAgent(t);
      await createOrg(outsider.agent, 'Own Inc.');
      await outsider.agent.post('/v1/holding').send(safeBody(x)).expect(403);
    });
  });

  describe('status', () => {
    it('shows `expired` for an active grant or warrant past its expiration date (nothing exercisable)', async () => {
      const x = await incentiveTable(t);
      const option = await createHolding(
        x.owner.agent,
        optionBody(x, { grantDate: '2015-01-01', expirationDate: '2020-01-01' }),
      );
      expect(option).toMatchObject({
        status: 'expired',
        vested: '4800',
        outstanding: '4800',
        exercisable: '0',
      });
      const warrant = await createHolding(
        x.owner.agent,
        warrantBody(x, { grantDate: '2015-01-01', expirationDate: '2016-01-01' }),
      );
      expect(warrant).toMatchObject({ status: 'expired', exercisable: '0' });
      // Stored as active: expiry is a reading of the date, not a transaction.
      const rows = (await db.query('SELECT status FROM holding WHERE id = ANY($1::uuid[])', [
        [option.id, warrant.id],
      ])) as { status: string }[];
      expect(rows.map((r) => r.status)).toEqual(['active', 'active']);
      // Not expired on its last day.
      const today = todayUtc();
      const lastDay = await createHolding(
        x.owner.agent,
        warrantBody(x, { grantDate: '2015-01-01', expirationDate: today }),
      );
      expect(lastDay.status).toBe('active');
    });
  });

  it('the log replays to the stored tables after grants of every type (ledger:verify)', async () => {
    const x = await incentiveTable(t);
    const schedule = await createSchedule(x.owner.agent, x.org.id);
    await createHolding(x.owner.agent, optionBody(x, { vestingSchedule: schedule.id }));
    await createHolding(x.owner.agent, optionBody(x, { type: 'rsu', exercisePrice: undefined }));
    await createHolding(x.owner.agent, warrantBody(x));
    await createHolding(x.owner.agent, noteBody(x));
    await createHolding(x.owner.agent, safeBody(x));
    const security2 = await createSecurity(x.owner.agent, x.org.id, {
      name: 'Preferred',
      classType: 'preferred',
      idPrefix: 'PA-',
    });
    await createHolding(x.owner.agent, warrantBody(x, { security: security2.id }));
    const verified = await verifyLedger(t, x.org.id);
    expect(verified).toMatchObject({ code: 0 });
  });
});
