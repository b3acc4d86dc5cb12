import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LedgerWriter } from '../../../src/cap-table/ledger/ledger-writer';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, joinByInvitation, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import {
  createHolding,
  createPlan,
  createSchedule,
  getPlan,
  IncentiveTable,
  incentiveTable,
  ledgerLog,
  MISSING,
  noteBody,
  optionBody,
  outbox,
  safeBody,
  warrantBody,
} from './holdings-fixtures';

describe('/v1/holding/:holding and GET /v1/holding', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  /** Exercises `quantity` of a grant through the ledger (the options routes are another part's). */
  const exercise = (x: IncentiveTable, holdingId: string, quantity: string) =>
    t
      .get<LedgerWriter>(LedgerWriter)
      .change(x.org.id, x.owner.user.id, { holdings: [holdingId] }, async (c) => {
        await c.apply('TX_EQUITY_COMPENSATION_EXERCISE', '2024-06-01', {
          holdingId,
          requestId: null,
          quantity,
          date: '2024-06-01',
          paymentMethod: null,
          shareholdingId: randomUUID(),
          legendIds: [],
        });
      });

  const logTypes = async (orgId: string) => (await ledgerLog(db, orgId)).map((e) => e.type);

  describe('GET /v1/holding/:holding', () => {
    it('its holder reads it (self), not another’s; Viewers read all; outsiders and strangers are refused', async () => {
      const x = await incentiveTable(t);
      const holder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      const mine = await createHolding(x.owner.agent, optionBody(x, { member: holder.member.id }));
      const theirs = await createHolding(x.owner.agent, optionBody(x));
      await holder.agent
        .get(`/v1/holding/${mine.id}`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual(mine));
      await holder.agent.get(`/v1/holding/${theirs.id}`).expect(403).expect(errorBody(403));
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      await viewer.agent.get(`/v1/holding/${theirs.id}`).expect(200);
      const outsider = await loggedInAgent(t);
      await outsider.agent.get(`/v1/holding/${mine.id}`).expect(403);
      await t.http.get(`/v1/holding/${mine.id}`).expect(401).expect(errorBody(401));
      await x.owner.agent.get(`/v1/holding/${MISSING}`).expect(404).expect(errorBody(404));
      await x.owner.agent.get('/v1/holding/not-a-uuid').expect(400);
    });
  });

  describe('PATCH /v1/holding/:holding', () => {
    it('changes a grant’s quantity against its pool, records holding.updated with previous attributes; unchanged records nothing', async () => {
      const x = await incentiveTable(t);
      const grant = await createHolding(x.owner.agent, optionBody(x));
      const res = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ quantity: '6000', exercisePrice: '0.75', expirationDate: '2029-01-01' })
        .expect(200);
      expect(res.body).toEqual({
        ...grant,
        quantity: '6000',
        exercisePrice: '0.75',
        expirationDate: '2029-01-01',
        vested: '6000',
        outstanding: '6000',
        exercisable: '6000',
        updated: expect.any(String),
      });
      expect((await getPlan(x.owner.agent, x.plan.id)).pools[0]).toMatchObject({
        granted: '6000',
        available: '44000',
      });
      const amended = (await ledgerLog(db, x.org.id)).at(-1)!;
      expect(amended).toMatchObject({
        type: 'HOLDING_AMENDED',
        payload: {
          holdingId: grant.id,
          changes: {
            terms: { quantity: '6000', exercisePrice: '0.75', expirationDate: '2029-01-01' },
          },
        },
      });
      const updated = (await outbox(db, x.org.id)).filter((e) => e.type === 'holding.updated');
      expect(updated).toHaveLength(1);
      expect(updated[0].data.object).toEqual(res.body);
      expect(updated[0].data.previous_attributes).toEqual({
        quantity: '4800',
        exercisePrice: '0.5',
        expirationDate: null,
        vested: '4800',
        outstanding: '4800',
        exercisable: '4800',
      });
      expect(updated[0].description).toContain('quantity 4800 -> 6000');

      const before = (await ledgerLog(db, x.org.id)).length;
      await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ quantity: '6000.0', exercisePrice: 0.75, member: x.alice.id, plan: x.plan.id })
        .expect(200);
      expect((await ledgerLog(db, x.org.id)).length).toBe(before);
      expect((await outbox(db, x.org.id)).filter((e) => e.type === 'holding.updated')).toHaveLength(
        1,
      );
    });

    it('a larger quantity beyond the pool, or one below what was exercised, is 400 insufficientShares', async () => {
      const x = await incentiveTable(t);
      const grant = await createHolding(x.owner.agent, optionBody(x, { quantity: '40000' }));
      const beyond = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ quantity: '50001' })
        .expect(400);
      expect(beyond.body).toMatchObject({ key: 'insufficientShares' });
      await x.owner.agent.patch(`/v1/holding/${grant.id}`).send({ quantity: '50000' }).expect(200);
      await exercise(x, grant.id, '1000');
      const below = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ quantity: '999' })
        .expect(400);
      expect(below.body).toMatchObject({
        key: 'insufficientShares',
        message: expect.stringMatching(/1000 of it were exercised/),
      });
      const ok = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ quantity: '1000' })
        .expect(200);
      expect(ok.body).toMatchObject({
        quantity: '1000',
        exercised: '1000',
        outstanding: '0',
        status: 'active',
      });
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('refuses null for required fields and fields of another type; null clears the nullable ones', async () => {
      const x = await incentiveTable(t);
      const schedule = await createSchedule(x.owner.agent, x.org.id);
      const grant = await createHolding(
        x.owner.agent,
        optionBody(x, {
          expirationDate: '2030-01-01',
          vestingSchedule: schedule.id,
          vestingStartDate: '2019-06-01',
        }),
      );
      for (const body of [{ quantity: null }, { grantDate: null }, { earlyExercisable: null }]) {
        await x.owner.agent.patch(`/v1/holding/${grant.id}`).send(body).expect(400);
      }
      const noPrice = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ exercisePrice: null })
        .expect(400);
      expect(noPrice.body.message).toMatch(/exercisePrice is required for an option_iso/);
      const foreign = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ principal: '5' })
        .expect(400);
      expect(foreign.body.message).toMatch(/principal does not apply/);
      const cleared = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ expirationDate: null, vestingSchedule: null, vestingStartDate: null })
        .expect(200);
      expect(cleared.body).toMatchObject({
        expirationDate: null,
        vestingSchedule: null,
        vestingStartDate: '2019-01-01',
        vested: '4800',
      });
      const rescheduled = await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ vestingSchedule: schedule.id, vestingStartDate: '2099-01-01' })
        .expect(200);
      expect(rescheduled.body).toMatchObject({
        vestingSchedule: schedule.id,
        vested: '0',
        exercisable: '0',
      });
      const rsu = await createHolding(
        x.owner.agent,
        optionBody(x, { type: 'rsu', exercisePrice: '1' }),
      );
      await x.owner.agent
        .patch(`/v1/holding/${rsu.id}`)
        .send({ exercisePrice: null })
        .expect(200)
        .expect((r) => expect(r.body.exercisePrice).toBeNull());
    });

    it('the holder, type, plan, pool and class cannot change (400)', async () => {
      const x = await incentiveTable(t);
      const bob = await createHolder(x.owner.agent, x.org.id, 'Bob');
      const other = await createPlan(x.owner.agent, x.org.id, x.security.id, {
        name: 'Other',
        sharesReserved: '1000',
        pools: [{ name: 'P', sharesReserved: '1000' }],
      });
      const grant = await createHolding(x.owner.agent, optionBody(x));
      for (const body of [
        { member: bob.id },
        { type: 'option_nso' },
        { plan: other.id, pool: other.pools[0].id },
      ]) {
        const res = await x.owner.agent.patch(`/v1/holding/${grant.id}`).send(body).expect(400);
        expect(res.body.message).toMatch(/cannot change/);
      }
      const warrant = await createHolding(x.owner.agent, warrantBody(x));
      const otherClass = (
        await x.owner.agent
          .post(`/v1/organization/${x.org.id}/security`)
          .send({ name: 'B', classType: 'common', idPrefix: 'B-', authorizedShares: '100' })
          .expect(201)
      ).body;
      await x.owner.agent
        .patch(`/v1/holding/${warrant.id}`)
        .send({ security: otherClass.id })
        .expect(400);
    });

    it('a note keeps its principal and interest terms once repaid in part (409); its cap and discount may change', async () => {
      const x = await incentiveTable(t);
      const note = await createHolding(x.owner.agent, noteBody(x));
      await x.owner.agent
        .patch(`/v1/holding/${note.id}`)
        .send({ principal: '120000' })
        .expect(200)
        .expect((r) => expect(r.body.principalOutstanding).toBe('120000'));
      await x.owner.agent
        .post(`/v1/holding/${note.id}/repay`)
        .send({ amount: '100', date: '2024-02-01' })
        .expect(200);
      for (const body of [
        { principal: '130000' },
        { interestRate: '7' },
        { dayCount: 'actual/365' },
        { issueDate: '2023-12-01' },
      ]) {
        await x.owner.agent.patch(`/v1/holding/${note.id}`).send(body).expect(409);
      }
      await x.owner.agent
        .patch(`/v1/holding/${note.id}`)
        .send({ valuationCap: '8000000', discount: '10', maturityDate: '2027-01-01' })
        .expect(200)
        .expect((r) =>
          expect(r.body).toMatchObject({
            valuationCap: '8000000',
            discount: '10',
            maturityDate: '2027-01-01',
            principal: '120000',
          }),
        );
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('another organization’s vesting schedule → 404; a Viewer, or the holder, may not edit (403); 401', async () => {
      const x = await incentiveTable(t);
      const y = await incentiveTable(t);
      const theirs = await createSchedule(y.owner.agent, y.org.id);
      const holder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      const grant = await createHolding(x.owner.agent, optionBody(x, { member: holder.member.id }));
      await x.owner.agent
        .patch(`/v1/holding/${grant.id}`)
        .send({ vestingSchedule: theirs.id })
        .expect(404);
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      await viewer.agent.patch(`/v1/holding/${grant.id}`).send({ quantity: '1' }).expect(403);
      await holder.agent.patch(`/v1/holding/${grant.id}`).send({ quantity: '1' }).expect(403);
      await holder.agent.put(`/v1/holding/${grant.id}`).send(optionBody(x)).expect(403);
      await holder.agent.delete(`/v1/holding/${grant.id}`).expect(403);
      await y.owner.agent.patch(`/v1/holding/${grant.id}`).send({ quantity: '1' }).expect(403);
      await t.http.patch(`/v1/holding/${grant.id}`).send({ quantity: '1' }).expect(401);
      await x.owner.agent
        .get(`/v1/holding/${grant.id}`)
        .expect((r) => expect(r.body.quantity).toBe('4800'));
    });
  });

  describe('PUT /v1/holding/:holding', () => {
    it('replaces every editable field: required ones needed, omitted optional ones cleared or defaulted', async () => {
      const x = await incentiveTable(t);
      const grant = await createHolding(
        x.owner.agent,
        optionBody(x, {
          expirationDate: '2030-01-01',
          earlyExercisable: true,
          terminationExerciseWindows: [
            { reason: 'VOLUNTARY_OTHER', period: 3, periodType: 'months' },
          ],
        }),
      );
      const missing = await x.owner.agent
        .put(`/v1/holding/${grant.id}`)
        .send({ quantity: '4800' })
        .expect(400);
      expect(missing.body).toMatchObject({
        key: 'invalidFields',
        message: expect.stringMatching(/exercisePrice is required; grantDate is required/),
      });
      const res = await x.owner.agent
        .put(`/v1/holding/${grant.id}`)
        .send({ quantity: '4000', exercisePrice: '0.5', grantDate: '2019-02-01' })
        .expect(200);
      expect(res.body).toMatchObject({
        plan: x.plan.id,
        pool: x.pool.id,
        quantity: '4000',
        grantDate: '2019-02-01',
        expirationDate: null,
        vestingStartDate: '2019-02-01',
        earlyExercisable: false,
        terminationExerciseWindows: [],
      });
      expect((await getPlan(x.owner.agent, x.plan.id)).pools[0].granted).toBe('4000');

      const safe = await createHolding(
        x.owner.agent,
        safeBody(x, { discount: '20', mfn: true, currency: 'EUR' }),
      );
      const replaced = await x.owner.agent
        .put(`/v1/holding/${safe.id}`)
        .send({ amount: '150000', safeType: 'pre_money', issueDate: '2024-02-01' })
        .expect(200);
      expect(replaced.body).toMatchObject({
        amount: '150000',
        safeType: 'pre_money',
        issueDate: '2024-02-01',
        valuationCap: null,
        discount: null,
        mfn: false,
        proRata: false,
        currency: 'USD',
      });
      await x.owner.agent
        .put(`/v1/holding/${safe.id}`)
        .send({ amount: '1', safeType: 'pre_money', issueDate: '2024-02-01', type: 'warrant' })
        .expect(400);
    });
  });

  describe('DELETE /v1/holding/:holding', () => {
    it('cancels a grant (200, the holding now cancelled): its outstanding shares return to the pool; twice → 409; events and billing', async () => {
      const x = await incentiveTable(t);
      const grant = await createHolding(x.owner.agent, optionBody(x, { quantity: '10000' }));
      await exercise(x, grant.id, '2500');
      const res = await x.owner.agent.delete(`/v1/holding/${grant.id}`).expect(200);
      const after = (await x.owner.agent.get(`/v1/holding/${grant.id}`).expect(200)).body;
      expect(res.body).toEqual(after);
      expect(after).toMatchObject({
        status: 'cancelled',
        exercised: '2500',
        cancelled: '7500',
        outstanding: '0',
        exercisable: '0',
      });
      expect((await getPlan(x.owner.agent, x.plan.id)).pools[0]).toMatchObject({
        granted: '10000',
        exercised: '2500',
        cancelled: '7500',
        returned: '7500',
        available: '47500',
      });
      expect((await ledgerLog(db, x.org.id)).at(-1)).toMatchObject({
        type: 'TX_EQUITY_COMPENSATION_CANCELLATION',
        payload: { holdingId: grant.id, quantity: '7500', returnedToPool: true },
      });
      const events = await outbox(db, x.org.id);
      const cancelled = events.find((e) => e.type === 'holding.deleted')!;
      expect(cancelled.data.object).toEqual(after);
      expect(events.at(-1)).toMatchObject({
        type: 'billing.member_count_changed',
        data: { object: { organization: x.org.id, members: 1 } },
      });
      const again = await x.owner.agent.delete(`/v1/holding/${grant.id}`).expect(409);
      expect(again.body.message).toMatch(/cancelled/);
      await x.owner.agent.patch(`/v1/holding/${grant.id}`).send({ quantity: '1' }).expect(409);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('a plan that retires cancelled grants takes them out of the plan and the class’s reservation', async () => {
      const x = await incentiveTable(t);
      const plan = await createPlan(x.owner.agent, x.org.id, x.security.id, {
        name: 'Retiring plan',
        sharesReserved: '20000',
        defaultCancellationBehavior: 'retire',
        pools: [{ name: 'P', sharesReserved: '20000' }],
      });
      const classBefore = (
        await x.owner.agent.get(`/v1/organization/${x.org.id}/security/${x.security.id}`)
      ).body;
      const grant = await createHolding(
        x.owner.agent,
        optionBody(x, { plan: plan.id, pool: plan.pools[0].id, quantity: '5000' }),
      );
      await x.owner.agent.delete(`/v1/holding/${grant.id}`).expect(200);
      expect((await getPlan(x.owner.agent, plan.id)).pools[0]).toMatchObject({
        cancelled: '5000',
        returned: '0',
        available: '15000',
      });
      const classAfter = (
        await x.owner.agent.get(`/v1/organization/${x.org.id}/security/${x.security.id}`)
      ).body;
      expect(Number(classBefore.reservedShares) - Number(classAfter.reservedShares)).toBe(5000);
      expect((await ledgerLog(db, x.org.id)).at(-1)!.payload.returnedToPool).toBe(false);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('cancels warrants, notes and SAFEs; the member count drops when nothing is left', async () => {
      const x = await incentiveTable(t);
      const holdings = [
        await createHolding(x.owner.agent, warrantBody(x)),
        await createHolding(x.owner.agent, noteBody(x)),
        await createHolding(x.owner.agent, safeBody(x)),
      ];
      for (const h of holdings) await x.owner.agent.delete(`/v1/holding/${h.id}`).expect(200);
      expect(
        (await ledgerLog(db, x.org.id)).slice(-3).map((e) => [e.type, e.payload.holdingId]),
      ).toEqual([
        ['TX_WARRANT_CANCELLATION', holdings[0].id],
        ['TX_CONVERTIBLE_CANCELLATION', holdings[1].id],
        ['TX_CONVERTIBLE_CANCELLATION', holdings[2].id],
      ]);
      const statuses = await Promise.all(
        holdings.map(
          async (h) => (await x.owner.agent.get(`/v1/holding/${h.id}`).expect(200)).body.status,
        ),
      );
      expect(statuses).toEqual(['cancelled', 'cancelled', 'cancelled']);
      const billing = (await outbox(db, x.org.id)).filter(
        (e) => e.type === 'billing.member_count_changed',
      );
      expect(billing.at(-1)!.data.object.members).toBe(0);
      await x.owner.agent.delete(`/v1/holding/${MISSING}`).expect(404);
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      const live = await createHolding(x.owner.agent, safeBody(x));
      await viewer.agent.delete(`/v1/holding/${live.id}`).expect(403);
      await t.http.delete(`/v1/holding/${live.id}`).expect(401);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('GET /v1/holding', () => {
    it('lists the caller’s own holdings across organizations, not others’; deleted organizations and removed memberships drop out', async () => {
      const x = await incentiveTable(t);
      const y = await incentiveTable(t);
      const holder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      const inY = await joinByInvitation(
        y.owner.agent,
        y.org.id,
        holder.agent,
        holder.email,
        'Shareholder',
      );
      const a = await createHolding(x.owner.agent, optionBody(x, { member: holder.member.id }));
      const b = await createHolding(y.owner.agent, safeBody(y, { member: inY.id }));
      await createHolding(x.owner.agent, optionBody(x));
      await createHolding(y.owner.agent, safeBody(y));
      const list = await holder.agent.get('/v1/holding').expect(200);
      expect(list.body).toEqual([a, b]);
      expect(list.body.map((h: { organization: string }) => h.organization)).toEqual([
        x.org.id,
        y.org.id,
      ]);
      await holder.agent
        .get('/v1/holding?limit=1&offset=1')
        .expect(200)
        .expect((r) => expect(r.body).toEqual([b]));
      await holder.agent.get('/v1/holding?status=active').expect(400);
      // The owners hold nothing themselves.
      await x.owner.agent
        .get('/v1/holding')
        .expect(200)
        .expect((r) => expect(r.body).toEqual([]));

      await y.owner.agent.delete(`/v1/organization/${y.org.id}`).expect(200);
      expect((await holder.agent.get('/v1/holding').expect(200)).body).toEqual([a]);
      await x.owner.agent
        .delete(`/v1/organization/${x.org.id}/member/${holder.member.id}`)
        .expect(200);
      expect((await holder.agent.get('/v1/holding').expect(200)).body).toEqual([]);
      await t.http.get('/v1/holding').expect(401);
    });
  });

  it('the log replays to the stored tables after amendments and cancellations (ledger:verify)', async () => {
    const x = await incentiveTable(t);
    const outsider = await loggedInAgent(t);
    await createOrg(outsider.agent);
    const schedule = await createSchedule(x.owner.agent, x.org.id);
    const grant = await createHolding(
      x.owner.agent,
      optionBody(x, { vestingSchedule: schedule.id }),
    );
    await x.owner.agent.patch(`/v1/holding/${grant.id}`).send({ quantity: '9000' }).expect(200);
    await x.owner.agent
      .put(`/v1/holding/${grant.id}`)
      .send({ quantity: '8000', exercisePrice: '1', grantDate: '2020-01-01' })
      .expect(200);
    const note = await createHolding(x.owner.agent, noteBody(x));
    await x.owner.agent.patch(`/v1/holding/${note.id}`).send({ discount: '25' }).expect(200);
    await x.owner.agent.delete(`/v1/holding/${grant.id}`).expect(200);
    await x.owner.agent.delete(`/v1/holding/${note.id}`).expect(200);
    expect(await logTypes(x.org.id)).toEqual(
      expect.arrayContaining(['HOLDING_AMENDED', 'TX_EQUITY_COMPENSATION_CANCELLATION']),
    );
    expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
  });
});
