import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { accruedInterest, toDecimalString } from '../../../libs/cap-math';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, joinByInvitation, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import {
  createHolding,
  createPlan,
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
} from './holdings-fixtures';

describe('repay, convert and the entity portfolio', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  const repay = (agent: Agent, id: string, amount: string, date: string) =>
    agent.post(`/v1/holding/${id}/repay`).send({ amount, date });

  describe('POST /v1/holding/:holding/repay', () => {
    it('pays interest first, then principal; fully repaid → `repaid`; more than owed → 400; again → 409', async () => {
      const x = await incentiveTable(t);
      // 100,000 at 6% simple, 30/360: 3,000 of interest every half year.
      const note = await createHolding(x.owner.agent, noteBody(x));
      const first = await repay(x.owner.agent, note.id, '1000', '2024-07-01').expect(200);
      const sinceJuly = accruedInterest({
        principal: '100000',
        annualRate: '0.06',
        interestType: 'simple',
        dayCount: '30/360',
        startDate: '2024-07-01',
        endDate: todayUtc(),
      });
      expect(first.body).toEqual({
        ...note,
        principalOutstanding: '100000',
        interestPaid: '1000',
        // 2,000 left unpaid on 1 July, plus what accrued since.
        accruedInterest: toDecimalString(sinceJuly.plus(2000).toDecimalPlaces(10)),
        updated: expect.stringMatching(ISO_DATE_TIME),
      });
      expect((await ledgerLog(db, x.org.id)).at(-1)).toMatchObject({
        type: 'TX_CONVERTIBLE_REPAYMENT',
        effectiveDate: '2024-07-01',
        payload: { holdingId: note.id, amount: '1000', date: '2024-07-01' },
      });
      // 5,000 of interest owed on 1 January 2025: 5,000 of the 10,000 reduce the principal.
      const second = await repay(x.owner.agent, note.id, '10000', '2025-01-01').expect(200);
      expect(second.body).toMatchObject({
        status: 'active',
        principalOutstanding: '95000',
        interestPaid: '6000',
      });
      const tooMuch = await repay(x.owner.agent, note.id, '95000.01', '2025-01-01').expect(400);
      expect(tooMuch.body.message).toMatch(/more than the 95000 owed on 2025-01-01/);
      const backdated = await repay(x.owner.agent, note.id, '100', '2024-12-31').expect(400);
      expect(backdated.body.message).toMatch(/must not be before 2025-01-01/);

      const last = await repay(x.owner.agent, note.id, '95000', '2025-01-01').expect(200);
      expect(last.body).toMatchObject({
        status: 'repaid',
        principalOutstanding: '0',
        accruedInterest: '0',
        interestPaid: '6000',
      });
      const events = await outbox(db, x.org.id);
      const repaid = events.filter((e) => e.type === 'holding.repaid');
      expect(repaid.map((e) => e.description)).toEqual([
        `convertible note ${note.id}: 1000 USD repaid on 2024-07-01 (interest 1000, principal 0)`,
        `convertible note ${note.id}: 10000 USD repaid on 2025-01-01 (interest 5000, principal 5000)`,
        `convertible note ${note.id}: 95000 USD repaid on 2025-01-01 (interest 0, principal 95000): repaid in full`,
      ]);
      expect(repaid.at(-1)!.data.object).toEqual(last.body);
      // Repaid in full, Alice holds nothing any more.
      expect(events.at(-1)).toMatchObject({
        type: 'billing.member_count_changed',
        data: { object: { members: 0 } },
      });
      const again = await repay(x.owner.agent, note.id, '1', '2025-02-01').expect(409);
      expect(again.body.message).toMatch(/repaid/);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('only notes are repaid (400); validation; 401 and 403', async () => {
      const x = await incentiveTable(t);
      const safe = await createHolding(x.owner.agent, safeBody(x));
      const grant = await createHolding(x.owner.agent, optionBody(x));
      const note = await createHolding(x.owner.agent, noteBody(x));
      for (const id of [safe.id, grant.id]) {
        const res = await repay(x.owner.agent, id, '10', '2024-06-01').expect(400);
        expect(res.body.message).toMatch(/only convertible notes are repaid/);
      }
      await repay(x.owner.agent, note.id, '0', '2024-06-01').expect(400);
      await repay(x.owner.agent, note.id, '10', '2024-13-01').expect(400);
      await x.owner.agent
        .post(`/v1/holding/${note.id}/repay`)
        .send({ amount: '10' })
        .expect(400)
        .expect((r) => expect(r.body.key).toBe('invalidFields'));
      // Before the issue date no interest has accrued and nothing is owed yet.
      await repay(x.owner.agent, note.id, '10', '2023-12-31').expect(400);
      await repay(t.http as unknown as Agent, note.id, '10', '2024-06-01').expect(401);
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      await repay(viewer.agent, note.id, '10', '2024-06-01').expect(403);
      await repay(x.owner.agent, MISSING, '10', '2024-06-01').expect(404);
      expect(
        (await ledgerLog(db, x.org.id)).filter((e) => e.type === 'TX_CONVERTIBLE_REPAYMENT'),
      ).toHaveLength(0);
    });

    it('settles interest to 10 decimal places, so a payment reaching the principal stays exact', async () => {
      const x = await incentiveTable(t);
      // actual/365: 74 days of 6% on 100,000 is 1216.438356164383...
      const note = await createHolding(x.owner.agent, noteBody(x, { dayCount: 'actual/365' }));
      const res = await repay(x.owner.agent, note.id, '5000', '2024-03-15').expect(200);
      expect(res.body).toMatchObject({
        interestPaid: '1216.4383561644',
        principalOutstanding: '96216.4383561644',
      });
      await repay(x.owner.agent, note.id, '1000', '2024-04-15').expect(200);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('POST /v1/holding/:holding/convert', () => {
    /**
     * The YC Post-Money Safe User Guide, Appendix II, Example 1: 9,250,000 founder shares,
     * 300,000 outstanding options, 350,000 promised options and 100,000 unissued pool (here: a
     * pool with 450,000 available), Investor A $200,000 at a $4M post-money cap and Investor B
     * $800,000 at an $8M post-money cap.
     */
    async function ycExample1() {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent, 'YC Example Inc.');
      const common = await createSecurity(owner.agent, org.id, { authorizedShares: '20000000' });
      const preferred = await createSecurity(owner.agent, org.id, {
        name: 'Series A Preferred',
        classType: 'preferred',
        idPrefix: 'PA-',
        authorizedShares: '10000000',
      });
      const founders = await createHolder(owner.agent, org.id, 'Founders');
      const employee = await createHolder(owner.agent, org.id, 'Employee');
      const investorA = await createHolder(owner.agent, org.id, 'Investor A');
      const investorB = await createHolder(owner.agent, org.id, 'Investor B');
      await issue(owner.agent, org.id, {
        member: founders.id,
        security: common.id,
        quantity: '9250000',
        issueDate: '2023-01-01',
      });
      const plan = await createPlan(owner.agent, org.id, common.id, {
        sharesReserved: '750000',
        pools: [{ name: 'Options', sharesReserved: '750000' }],
      });
      await createHolding(owner.agent, {
        organization: org.id,
        member: employee.id,
        type: 'option_iso',
        plan: plan.id,
        pool: plan.pools[0].id,
        quantity: '300000',
        exercisePrice: '0.1',
        grantDate: '2023-02-01',
      });
      const safe = (member: string, amount: string, cap: string) =>
        createHolding(owner.agent, {
          organization: org.id,
          member,
          type: 'safe',
          safeType: 'post_money',
          amount,
          valuationCap: cap,
          issueDate: '2023-06-01',
        });
      const a = await safe(investorA.id, '200000', '4000000');
      const b = await safe(investorB.id, '800000', '8000000');
      return { owner, org, common, preferred, investorA, investorB, a, b };
    }

    it('YC post-money safe guide, Example 1 Q2 ($1.1144): A 588,235 at $0.34, B 1,176,470 at $0.68 — through the route', async () => {
      const yc = await ycExample1();
      const res = await yc.owner.agent
        .post(`/v1/holding/${yc.a.id}/convert`)
        .send({
          date: '2024-03-01',
          security: yc.preferred.id,
          pricePerShare: '1.1144',
          preMoneyValuation: '15000000',
        })
        .expect(201);
      expect(res.body).toEqual({
        holding: {
          ...yc.a,
          status: 'converted',
          conversion: {
            date: '2024-03-01',
            shareholding: res.body.shareholding.id,
            security: yc.preferred.id,
            shares: '588235',
            conversionPrice: '0.34',
            method: 'cap',
            conversionAmount: '200000',
            roundPricePerShare: '1.1144',
            preMoneyValuation: '15000000',
          },
          updated: expect.stringMatching(ISO_DATE_TIME),
        },
        shareholding: {
          id: expect.stringMatching(UUID),
          organization: yc.org.id,
          member: yc.investorA.id,
          security: yc.preferred.id,
          quantity: '588235',
          pricePerShare: '0.34',
          issueDate: '2024-03-01',
          certificateNumber: 'PA-1',
          status: 'active',
          legendIds: [],
          consideration: 'conversion of a SAFE',
          created: expect.stringMatching(ISO_DATE_TIME),
        },
      });
      // B converts in the same financing: its Company Capitalization still counts A's safe.
      const b = await yc.owner.agent
        .post(`/v1/holding/${yc.b.id}/convert`)
        .send({ date: '2024-03-01', security: yc.preferred.id, pricePerShare: '1.1144' })
        .expect(201);
      expect(b.body.holding.conversion).toMatchObject({
        shares: '1176470',
        conversionPrice: '0.68',
        method: 'cap',
        preMoneyValuation: null,
      });
      expect(b.body.shareholding).toMatchObject({
        member: yc.investorB.id,
        quantity: '1176470',
        certificateNumber: 'PA-2',
      });
      const preferred = (
        await yc.owner.agent.get(`/v1/organization/${yc.org.id}/security/${yc.preferred.id}`)
      ).body;
      expect(preferred.issuedShares).toBe(String(588235 + 1176470));
      // Shown in the holders' shareholding list.
      const list = (
        await yc.owner.agent.get(`/v1/organization/${yc.org.id}/shareholding`).expect(200)
      ).body as { id: string }[];
      expect(list.map((s) => s.id)).toEqual(
        expect.arrayContaining([res.body.shareholding.id, b.body.shareholding.id]),
      );

      const again = await yc.owner.agent
        .post(`/v1/holding/${yc.a.id}/convert`)
        .send({ date: '2024-03-01', security: yc.preferred.id, pricePerShare: '1.1144' })
        .expect(409);
      expect(again.body.message).toMatch(/converted/);
      const events = await outbox(db, yc.org.id);
      const converted = events.filter((e) => e.type === 'holding.converted');
      expect(converted.map((e) => e.description)).toEqual([
        `SAFE ${yc.a.id}: 200000 converted on 2024-03-01 into 588235 shares of Series A Preferred (PA-1) at 0.34 (cap)`,
        `SAFE ${yc.b.id}: 800000 converted on 2024-03-01 into 1176470 shares of Series A Preferred (PA-2) at 0.68 (cap)`,
      ]);
      expect(converted[0].data.object).toEqual(res.body.holding);
      expect(events.at(-1)).toMatchObject({
        type: 'billing.shareholder_count_changed',
        data: { object: { shareholders: 3 } },
      });
      const log = await ledgerLog(db, yc.org.id);
      expect(log.at(-1)).toMatchObject({
        type: 'TX_CONVERTIBLE_CONVERSION',
        effectiveDate: '2024-03-01',
        payload: { holdingId: yc.b.id, legendIds: [] },
      });
      expect(await verifyLedger(t, yc.org.id)).toMatchObject({ code: 0 });
    });

    it('YC Example 1 Q5 ($0.6577): A converts at its cap (590,334), B at the round price (1,216,360)', async () => {
      const yc = await ycExample1();
      const convert = (id: string) =>
        yc.owner.agent
          .post(`/v1/holding/${id}/convert`)
          .send({ date: '2024-03-01', security: yc.preferred.id, pricePerShare: '0.6577' })
          .expect(201);
      const b = await convert(yc.b.id);
      const a = await convert(yc.a.id);
      expect(a.body.holding.conversion).toMatchObject({ shares: '590334', method: 'cap' });
      // The guide's $0.338791 (6 places); recorded to the ledger's 10.
      expect(a.body.holding.conversion.conversionPrice).toBe('0.3387908364');
      expect(b.body.holding.conversion).toMatchObject({
        shares: '1216360',
        method: 'price',
        conversionPrice: '0.6577',
      });
    });

    /** 10,000,000 common shares issued, nothing else: the capitalization of the examples below. */
    async function tenMillion(type?: 'llc') {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      if (type) await owner.agent.patch(`/v1/organization/${org.id}`).send({ type }).expect(200);
      const common = await createSecurity(owner.agent, org.id, { authorizedShares: '20000000' });
      const preferred = await createSecurity(owner.agent, org.id, {
        name: 'Series Seed',
        classType: 'preferred',
        idPrefix: 'SS-',
        authorizedShares: '1000000',
      });
      const founder = await createHolder(owner.agent, org.id, 'Founder');
      const investor = await createHolder(owner.agent, org.id, 'Investor');
      await issue(owner.agent, org.id, {
        member: founder.id,
        security: common.id,
        quantity: type ? '1000' : '10000000',
        issueDate: '2022-01-01',
      });
      const holding = (fields: Record<string, unknown>) =>
        createHolding(owner.agent, { organization: org.id, member: investor.id, ...fields });
      const convert = (id: string, pricePerShare: string, date = '2024-01-01') =>
        owner.agent
          .post(`/v1/holding/${id}/convert`)
          .send({ date, security: preferred.id, pricePerShare });
      return { owner, org, common, preferred, investor, holding, convert };
    }

    it('a pre-money SAFE: the lower of cap / pre-money capitalization and the discounted price', async () => {
      const x = await tenMillion();
      const terms = {
        type: 'safe',
        safeType: 'pre_money',
        amount: '100000',
        valuationCap: '5000000',
        discount: '20',
        issueDate: '2023-01-01',
      };
      // Cap price 5M / 10M = 0.50 beats 1.00 × 0.8.
      const capped = await x.holding(terms);
      const a = await x.convert(capped.id, '1').expect(201);
      expect(a.body.holding.conversion).toMatchObject({
        shares: '200000',
        conversionPrice: '0.5',
        method: 'cap',
      });
      // The capitalization is the day before: A's 200,000 shares issued that day do not count,
      // nor does a plan approved on the day of the round.
      await createPlan(x.owner.agent, x.org.id, x.common.id, {
        sharesReserved: '1000000',
        boardApprovalDate: '2024-01-01',
        pools: [{ name: 'Round pool', sharesReserved: '1000000' }],
      });
      const discounted = await x.holding(terms);
      const b = await x.convert(discounted.id, '0.5').expect(201);
      expect(b.body.holding.conversion).toMatchObject({
        shares: '250000',
        conversionPrice: '0.4',
        method: 'discount',
      });
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('a note converts its principal plus the interest accrued to the date', async () => {
      const x = await tenMillion();
      // 8% simple on actual/365 for 2023, a 365-day year: 8,000 of interest.
      const note = await x.holding({
        type: 'convertible_note',
        principal: '100000',
        interestRate: '8',
        interestType: 'simple',
        dayCount: 'actual/365',
        issueDate: '2023-01-01',
        maturityDate: '2025-01-01',
        valuationCap: '5000000',
        discount: '20',
      });
      const res = await x.convert(note.id, '1').expect(201);
      expect(res.body.holding).toMatchObject({
        status: 'converted',
        principalOutstanding: '0',
        accruedInterest: '0',
        conversion: {
          conversionAmount: '108000',
          conversionPrice: '0.5',
          method: 'cap',
          shares: '216000',
          roundPricePerShare: '1',
        },
      });
      expect(res.body.shareholding).toMatchObject({
        quantity: '216000',
        pricePerShare: '0.5',
        consideration: 'conversion of a convertible note',
      });
      // A repaid note, or a note's repayment after conversion, is refused.
      await repay(x.owner.agent, note.id, '1', '2024-02-01').expect(409);
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('a note repaid in part converts its principal outstanding, the interest left unpaid and the interest since', async () => {
      const x = await tenMillion();
      const note = await x.holding({
        type: 'convertible_note',
        principal: '100000',
        interestRate: '6',
        interestType: 'simple',
        dayCount: '30/360',
        issueDate: '2024-01-01',
        maturityDate: '2026-01-01',
      });
      // 3,000 owed on 1 July; 1,000 paid leaves 2,000 unpaid; 3,000 more by 1 January.
      await repay(x.owner.agent, note.id, '1000', '2024-07-01').expect(200);
      const res = await x.convert(note.id, '1', '2025-01-01').expect(201);
      expect(res.body.holding.conversion).toMatchObject({
        conversionAmount: '105000',
        conversionPrice: '1',
        method: 'price',
        shares: '105000',
      });
      expect(res.body.holding).toMatchObject({ interestPaid: '1000', principalOutstanding: '0' });
      // Compound interest too: 100,000 at 10% compounded yearly for two years is 21,000.
      const compound = await x.holding({
        type: 'convertible_note',
        principal: '100000',
        interestRate: '10',
        interestType: 'compound',
        dayCount: '30/360',
        issueDate: '2022-01-01',
        maturityDate: '2026-01-01',
      });
      const c = await x.convert(compound.id, '2', '2024-01-01').expect(201);
      expect(c.body.holding.conversion).toMatchObject({
        conversionAmount: '121000',
        shares: '60500',
      });
      expect(await verifyLedger(t, x.org.id)).toMatchObject({ code: 0 });
    });

    it('an LLC keeps fractional units (10 places); a corporation rounds down', async () => {
      const llc = await tenMillion('llc');
      const safe = await llc.holding({
        type: 'safe',
        safeType: 'pre_money',
        amount: '1000',
        issueDate: '2023-01-01',
      });
      const res = await llc.convert(safe.id, '3').expect(201);
      expect(res.body.shareholding.quantity).toBe('333.3333333333');
      expect(res.body.holding.conversion.method).toBe('price');
      expect(await verifyLedger(t, llc.org.id)).toMatchObject({ code: 0 });

      const corp = await tenMillion();
      const whole = await corp.holding({
        type: 'safe',
        safeType: 'pre_money',
        amount: '1000',
        issueDate: '2023-01-01',
      });
      const w = await corp.convert(whole.id, '3').expect(201);
      expect(w.body.shareholding.quantity).toBe('333');
    });

    it('refusals: other types (400), dates before the issue, another organization’s class (404), a full class, roles', async () => {
      const x = await tenMillion();
      const grantTable = await incentiveTable(t);
      const grant = await createHolding(grantTable.owner.agent, optionBody(grantTable));
      const wrongType = await grantTable.owner.agent
        .post(`/v1/holding/${grant.id}/convert`)
        .send({ date: '2024-01-01', security: grantTable.security.id, pricePerShare: '1' })
        .expect(400);
      expect(wrongType.body.message).toMatch(/only convertible notes and SAFEs convert/);

      const safe = await x.holding({
        type: 'safe',
        safeType: 'post_money',
        amount: '100000',
        valuationCap: '1000000',
        issueDate: '2023-06-01',
      });
      const early = await x.convert(safe.id, '1', '2023-05-31').expect(400);
      expect(early.body.message).toMatch(/must not be before the issue date 2023-06-01/);
      await x.owner.agent
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-01-01', security: grantTable.security.id, pricePerShare: '1' })
        .expect(404);
      await x.owner.agent
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-01-01', security: x.preferred.id })
        .expect(400)
        .expect((r) => expect(r.body.key).toBe('invalidFields'));
      await x.owner.agent
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-01-01', security: x.preferred.id, pricePerShare: '0' })
        .expect(400);
      // 10% of a capitalization of 10M / 0.9: 1,111,111 shares, more than the 1M authorized.
      const full = await x.convert(safe.id, '1').expect(400);
      expect(full.body.key).toBe('insufficientShares');
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      await viewer.agent
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-01-01', security: x.preferred.id, pricePerShare: '1' })
        .expect(403)
        .expect(errorBody(403));
      await t.http
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-01-01', security: x.preferred.id, pricePerShare: '1' })
        .expect(401);
      await x.owner.agent
        .get(`/v1/holding/${safe.id}`)
        .expect((r) => expect(r.body).toMatchObject({ status: 'active', conversion: null }));
      expect(
        (await ledgerLog(db, x.org.id)).filter((e) => e.type === 'TX_CONVERTIBLE_CONVERSION'),
      ).toHaveLength(0);
      const cancelled = await x.holding({
        type: 'safe',
        safeType: 'pre_money',
        amount: '10',
        issueDate: '2023-06-01',
      });
      await x.owner.agent.delete(`/v1/holding/${cancelled.id}`).expect(200);
      await x.convert(cancelled.id, '1').expect(409);
    });
  });

  describe('GET /v1/entity/:entity/profile', () => {
    it('its owner sees every organization; an organization’s cap-table viewers their part; others 403', async () => {
      const x = await incentiveTable(t);
      const y = await incentiveTable(t);
      const person = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      const entity = person.user.entityId;
      const inY = await joinByInvitation(
        y.owner.agent,
        y.org.id,
        person.agent,
        person.email,
        'Shareholder',
      );
      const shares = await issue(x.owner.agent, x.org.id, {
        member: person.member.id,
        security: x.security.id,
        quantity: '1000',
      });
      const grant = await createHolding(x.owner.agent, optionBody(x, { member: person.member.id }));
      const safe = await createHolding(y.owner.agent, safeBody(y, { member: inY.id }));
      // Someone else's holdings are not in it.
      await createHolding(x.owner.agent, optionBody(x));

      const own = await person.agent.get(`/v1/entity/${entity}/profile`).expect(200);
      const xEntry = {
        organization: { id: x.org.id, name: 'Acme Inc.' },
        member: person.member.id,
        shareholdings: [
          (await x.owner.agent.get(`/v1/shareholding/${shares.id}`).expect(200)).body,
        ],
        holdings: [grant],
      };
      const yEntry = {
        organization: { id: y.org.id, name: 'Acme Inc.' },
        member: inY.id,
        shareholdings: [],
        holdings: [safe],
      };
      expect(own.body).toHaveLength(2);
      expect(own.body).toEqual(expect.arrayContaining([xEntry, yEntry]));

      // x's owner administers x only: x's part.
      await x.owner.agent
        .get(`/v1/entity/${entity}/profile`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual([xEntry]));
      const viewer = await memberAgent(t, y.owner.agent, y.org.id, 'Viewer');
      await viewer.agent
        .get(`/v1/entity/${entity}/profile`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual([yEntry]));
      const shareholder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      await shareholder.agent
        .get(`/v1/entity/${entity}/profile`)
        .expect(403)
        .expect(errorBody(403));
      const stranger = await loggedInAgent(t);
      await stranger.agent.get(`/v1/entity/${entity}/profile`).expect(403);
      await stranger.agent.get(`/v1/entity/${MISSING}/profile`).expect(404).expect(errorBody(404));
      await stranger.agent.get('/v1/entity/nope/profile').expect(400);
      await t.http.get(`/v1/entity/${entity}/profile`).expect(401);

      // A holder without an account: their entity is seen by the organization's admins.
      const holderEntity = x.alice.entity;
      const alice = await x.owner.agent.get(`/v1/entity/${holderEntity}/profile`).expect(200);
      expect(alice.body).toEqual([
        expect.objectContaining({ member: x.alice.id, holdings: [expect.any(Object)] }),
      ]);
      await y.owner.agent.get(`/v1/entity/${holderEntity}/profile`).expect(403);

      // The owner of an entity with no memberships sees an empty portfolio.
      await stranger.agent
        .get(`/v1/entity/${stranger.user.entityId}/profile`)
        .expect(200)
        .expect((r) => expect(r.body).toEqual([]));
    });
  });
});
