import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES, errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { cents } from '../../support/decimal-sums';
import { createHolding, createPlan, createSchedule, ledgerLog } from './holdings-fixtures';

interface HolderRow {
  member: string;
  name: string;
  proceeds: string;
  percentOfProceeds: string;
}

interface Breakpoint {
  exitValue: string;
  securities: string[];
  events: { kind: string; security: string | null; options: string[] }[];
}

describe('exit waterfall: POST /v1/captable/:organization/model/waterfall and its breakpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const waterfall = (agent: Agent, orgId: string, body: Record<string, unknown>) =>
    agent.post(`/v1/captable/${orgId}/model/waterfall`).send(body);
  const breakpoints = (agent: Agent, orgId: string, query: Record<string, string> = {}) =>
    agent.get(`/v1/captable/${orgId}/model/waterfall/breakpoints`).query(query);

  /**
   * Alice 8,000,000 common; Carol 2,000,000 Series A preferred sold at $5, 1× (participating with
   * a 2× cap when asked).
   */
  async function founderAndSeriesA(preferred: Record<string, unknown> = {}) {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Exit Co');
    const common = await createSecurity(owner.agent, org.id, { authorizedShares: '20000000' });
    const seriesA = await createSecurity(owner.agent, org.id, {
      name: 'Series A Preferred',
      classType: 'preferred',
      idPrefix: 'PA-',
      authorizedShares: '2000000',
      seniority: 2,
      originalIssuePrice: '5',
      liquidationPreferenceMultiple: '1',
      ...preferred,
    });
    const alice = await createHolder(owner.agent, org.id, 'Alice Able');
    const carol = await createHolder(owner.agent, org.id, 'Carol Cole');
    await issue(owner.agent, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '8000000',
    });
    await issue(owner.agent, org.id, {
      member: carol.id,
      security: seriesA.id,
      quantity: '2000000',
      pricePerShare: '5',
    });
    return { owner: owner.agent, org, common, seriesA, alice, carol };
  }

  const proceedsOf = (rows: HolderRow[], member: string) =>
    rows.find((r) => r.member === member)?.proceeds;

  it('non-participating preferred below its conversion point takes its preference', async () => {
    const { owner, org, seriesA, alice, carol } = await founderAndSeriesA();
    const low = await waterfall(owner, org.id, { exitValue: '8000000' }).expect(200);
    expect(low.body).toMatchObject({ exitValue: '8000000', distributable: '8000000.00' });
    expect(low.body.byClass).toContainEqual({
      security: seriesA.id,
      name: 'Series A Preferred',
      preference: '8000000.00',
      participation: '0.00',
      converted: false,
      proceeds: '8000000.00',
    });
    expect(proceedsOf(low.body.byHolder, carol.id)).toBe('8000000.00');
    expect(proceedsOf(low.body.byHolder, alice.id)).toBe('0.00');

    // $30M: the $10M preference beats 20% of $30M; common shares the $20M left.
    const mid = await waterfall(owner, org.id, { exitValue: '30000000' }).expect(200);
    expect(proceedsOf(mid.body.byHolder, carol.id)).toBe('10000000.00');
    expect(proceedsOf(mid.body.byHolder, alice.id)).toBe('20000000.00');
    expect(mid.body.commonSharePrice).toBe('2.5');
  });

  it('above its conversion point it converts to common', async () => {
    const { owner, org, seriesA, alice, carol } = await founderAndSeriesA();
    const res = await waterfall(owner, org.id, { exitValue: '100000000' }).expect(200);
    expect(res.body.byClass).toContainEqual(
      expect.objectContaining({ security: seriesA.id, converted: true, preference: '0.00' }),
    );
    expect(proceedsOf(res.body.byHolder, carol.id)).toBe('20000000.00');
    expect(proceedsOf(res.body.byHolder, alice.id)).toBe('80000000.00');
    const percents = Object.fromEntries(
      (res.body.byHolder as HolderRow[]).map((r) => [r.member, r.percentOfProceeds]),
    );
    expect(percents).toEqual({ [carol.id]: '20', [alice.id]: '80' });
    expect((res.body.byHolder as HolderRow[]).find((r) => r.member === alice.id)!.name).toBe(
      'Alice Able',
    );
  });

  it('breakpoints: the preference paid in full at $10M, conversion at $50M', async () => {
    const { owner, org, seriesA } = await founderAndSeriesA();
    const res = await breakpoints(owner, org.id).expect(200);
    const points = res.body.breakpoints as Breakpoint[];
    expect(points.map((p) => [p.exitValue, p.events.map((e) => e.kind)])).toEqual([
      ['10000000', ['preference']],
      ['50000000', ['conversion']],
    ]);
    expect(points[1].events[0].security).toBe(seriesA.id);
    expect(points[1].securities).toEqual(expect.arrayContaining([seriesA.id]));
    // Just below and above the conversion point, the class's decision flips.
    const below = await waterfall(owner, org.id, { exitValue: '49999999' }).expect(200);
    const above = await waterfall(owner, org.id, { exitValue: '50000001' }).expect(200);
    const classOf = (body: { byClass: { security: string; converted: boolean }[] }) =>
      body.byClass.find((c) => c.security === seriesA.id)!;
    expect(classOf(below.body).converted).toBe(false);
    expect(classOf(above.body).converted).toBe(true);
  });

  it('participating preferred takes its preference, then participates up to its cap', async () => {
    const { owner, org, seriesA, alice, carol } = await founderAndSeriesA({
      participating: true,
      participationCapMultiple: '2',
    });
    // $30M: $10M preference, then $2 a share on 10M shares: Carol 10 + 4, Alice 16.
    const res = await waterfall(owner, org.id, { exitValue: '30000000' }).expect(200);
    expect(res.body.byClass).toContainEqual({
      security: seriesA.id,
      name: 'Series A Preferred',
      preference: '10000000.00',
      participation: '4000000.00',
      converted: false,
      proceeds: '14000000.00',
    });
    expect(proceedsOf(res.body.byHolder, alice.id)).toBe('16000000.00');
    // $70M: uncapped she would have 10 + 12 = 22M; the cap is 2 × $5 × 2M = $20M.
    const capped = await waterfall(owner, org.id, { exitValue: '70000000' }).expect(200);
    expect(proceedsOf(capped.body.byHolder, carol.id)).toBe('20000000.00');
    expect(proceedsOf(capped.body.byHolder, alice.id)).toBe('50000000.00');
    // $150M: 20% as converted ($30M) beats the cap: she converts.
    const converted = await waterfall(owner, org.id, { exitValue: '150000000' }).expect(200);
    expect(proceedsOf(converted.body.byHolder, carol.id)).toBe('30000000.00');
    const kinds = (await breakpoints(owner, org.id).expect(200)).body.breakpoints.map(
      (p: Breakpoint) => p.events.map((e) => e.kind).join(),
    );
    expect(kinds).toEqual(['preference', 'participation-cap', 'conversion']);
  });

  it('two stacked seniorities: the senior class is paid first, then the junior', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const common = await createSecurity(owner.agent, org.id);
    const a = await createSecurity(owner.agent, org.id, {
      name: 'Series A',
      classType: 'preferred',
      idPrefix: 'PA-',
      seniority: 1,
      originalIssuePrice: '1',
    });
    const b = await createSecurity(owner.agent, org.id, {
      name: 'Series B',
      classType: 'preferred',
      idPrefix: 'PB-',
      seniority: 2,
      originalIssuePrice: '2',
    });
    const holders = await Promise.all(
      ['Founder', 'A Investor', 'B Investor'].map((n) => createHolder(owner.agent, org.id, n)),
    );
    for (const [holder, security] of [
      [holders[0], common],
      [holders[1], a],
      [holders[2], b],
    ] as const) {
      await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1000000',
      });
    }
    const res = await waterfall(owner.agent, org.id, { exitValue: '2500000' }).expect(200);
    const byClass = Object.fromEntries(
      (res.body.byClass as { security: string; proceeds: string }[]).map((c) => [
        c.security,
        c.proceeds,
      ]),
    );
    expect(byClass).toEqual({ [b.id]: '2000000.00', [a.id]: '500000.00', [common.id]: '0.00' });
  });

  it('vested options take part only in the money, net of the exercise price; acceleration counts the unvested', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const common = await createSecurity(owner.agent, org.id, { authorizedShares: '20000000' });
    const alice = await createHolder(owner.agent, org.id, 'Alice Able');
    const bob = await createHolder(owner.agent, org.id, 'Bob Baker');
    await issue(owner.agent, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '9000000',
    });
    const plan = await createPlan(owner.agent, org.id, common.id, {
      sharesReserved: '2000000',
      pools: [{ name: 'Employees', sharesReserved: '2000000' }],
    });
    const option = await createHolding(owner.agent, {
      organization: org.id,
      member: bob.id,
      type: 'option_nso',
      plan: plan.id,
      pool: plan.pools[0].id,
      quantity: '1000000',
      exercisePrice: '1',
      grantDate: '2020-01-01',
    });
    // $5M: 9M shares at 0.5556 — under the $1 strike, the option takes nothing.
    const under = await waterfall(owner.agent, org.id, { exitValue: '5000000' }).expect(200);
    expect(under.body.options).toEqual([
      { holding: option.id, member: bob.id, exercised: false, proceeds: '0.00' },
    ]);
    expect(proceedsOf(under.body.byHolder, alice.id)).toBe('5000000.00');
    // $20M: 10M shares at p with $1M paid in: p = 2.1; Bob 1M × 1.1.
    const inTheMoney = await waterfall(owner.agent, org.id, { exitValue: '20000000' }).expect(200);
    expect(inTheMoney.body.options).toEqual([
      { holding: option.id, member: bob.id, exercised: true, proceeds: '1100000.00' },
    ]);
    expect(proceedsOf(inTheMoney.body.byHolder, alice.id)).toBe('18900000.00');
    expect(inTheMoney.body.commonSharePrice).toBe('2.1');
    const points = (await breakpoints(owner.agent, org.id).expect(200)).body.breakpoints;
    expect(points).toEqual([
      expect.objectContaining({
        exitValue: '9000000',
        events: [expect.objectContaining({ kind: 'options-in-the-money', options: [option.id] })],
      }),
    ]);

    // A grant vesting monthly over 4 years from this month: nothing vested yet.
    const schedule = await createSchedule(owner.agent, org.id);
    const thisMonth = new Date().toISOString().slice(0, 8) + '01';
    const unvested = await createHolding(owner.agent, {
      organization: org.id,
      member: bob.id,
      type: 'option_nso',
      plan: plan.id,
      pool: plan.pools[0].id,
      quantity: '1000000',
      exercisePrice: '1',
      grantDate: thisMonth,
      vestingStartDate: thisMonth,
      vestingSchedule: schedule.id,
    });
    const vestedOnly = await waterfall(owner.agent, org.id, { exitValue: '20000000' }).expect(200);
    expect(vestedOnly.body.options.map((o: { holding: string }) => o.holding)).toEqual([option.id]);
    const accelerated = await waterfall(owner.agent, org.id, {
      exitValue: '20000000',
      treatUnvestedAsAccelerated: true,
    }).expect(200);
    // 11M shares with $2M paid in: p = 2; each option 1M × 1.
    expect(
      Object.fromEntries(
        accelerated.body.options.map((o: { holding: string; proceeds: string }) => [
          o.holding,
          o.proceeds,
        ]),
      ),
    ).toEqual({ [option.id]: '1000000.00', [unvested.id]: '1000000.00' });
    await breakpoints(owner.agent, org.id, { treatUnvestedAsAccelerated: 'true' }).expect(200);
  });

  it('expenses come off the top; proceeds add up to the distributable amount to the cent', async () => {
    const { owner, org, carol } = await founderAndSeriesA();
    const res = await waterfall(owner, org.id, {
      exitValue: '7777777.77',
      transactionExpenses: '1000000.01',
    }).expect(200);
    expect(res.body).toMatchObject({
      transactionExpenses: '1000000.01',
      distributable: '6777777.76',
    });
    expect(proceedsOf(res.body.byHolder, carol.id)).toBe('6777777.76');
    for (const exitValue of ['123456789.01', '33333333.33', '1']) {
      const body = (await waterfall(owner, org.id, { exitValue }).expect(200)).body;
      expect(cents(body.byHolder.map((h: HolderRow) => h.proceeds))).toBe(
        cents([body.distributable]),
      );
    }
    const nothing = await waterfall(owner, org.id, {
      exitValue: '100',
      transactionExpenses: '1000',
    }).expect(200);
    expect(nothing.body.distributable).toBe('0.00');
  });

  it('a SAFE takes its purchase amount, or converts at its cap when that pays more', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const common = await createSecurity(owner.agent, org.id);
    const alice = await createHolder(owner.agent, org.id, 'Alice Able');
    const dan = await createHolder(owner.agent, org.id, 'Dan Dale');
    await issue(owner.agent, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '9000000',
    });
    const safe = await createHolding(owner.agent, {
      organization: org.id,
      member: dan.id,
      type: 'safe',
      amount: '1000000',
      safeType: 'post_money',
      valuationCap: '10000000',
      issueDate: '2024-01-01',
    });
    const small = await waterfall(owner.agent, org.id, { exitValue: '5000000' }).expect(200);
    expect(small.body.convertibles).toEqual([
      expect.objectContaining({ holding: safe.id, converted: false, proceeds: '1000000.00' }),
    ]);
    expect(proceedsOf(small.body.byHolder, alice.id)).toBe('4000000.00');
    // At $100M its 10% of the post-money capitalization is worth $10M.
    const large = await waterfall(owner.agent, org.id, { exitValue: '100000000' }).expect(200);
    expect(large.body.convertibles).toEqual([
      expect.objectContaining({ holding: safe.id, converted: true, proceeds: '10000000.00' }),
    ]);
  });

  it('a convertible note is debt: paid before the preferred', async () => {
    const { owner, org, alice, carol } = await founderAndSeriesA();
    const dan = await createHolder(owner, org.id, 'Dan Dale');
    const note = await createHolding(owner, {
      organization: org.id,
      member: dan.id,
      type: 'convertible_note',
      principal: '3000000',
      interestRate: '0',
      interestType: 'simple',
      dayCount: 'actual/365',
      issueDate: '2024-01-01',
      maturityDate: '2030-01-01',
    });
    // $8M: the note's $3M first, the $10M preference takes the remaining $5M.
    const res = await waterfall(owner, org.id, { exitValue: '8000000' }).expect(200);
    expect(res.body.convertibles).toEqual([
      expect.objectContaining({ holding: note.id, converted: false, proceeds: '3000000.00' }),
    ]);
    expect(proceedsOf(res.body.byHolder, dan.id)).toBe('3000000.00');
    expect(proceedsOf(res.body.byHolder, carol.id)).toBe('5000000.00');
    expect(proceedsOf(res.body.byHolder, alice.id)).toBe('0.00');
  });

  it('a preferred class without an original issue price is counted without preference, with a warning', async () => {
    const { owner, org, carol } = await founderAndSeriesA({ originalIssuePrice: null });
    const res = await waterfall(owner, org.id, { exitValue: '1000000' }).expect(200);
    expect(res.body.warnings).toEqual([expect.stringContaining('Series A Preferred')]);
    expect(proceedsOf(res.body.byHolder, carol.id)).toBe('200000.00');
  });

  it('stores nothing; refuses bad input with 400', async () => {
    const { owner, org } = await founderAndSeriesA();
    const db = t.get<DataSource>(DataSource);
    const before = await ledgerLog(db, org.id);
    await waterfall(owner, org.id, { exitValue: '1000' }).expect(200);
    expect(await ledgerLog(db, org.id)).toEqual(before);
    for (const body of [
      {},
      { exitValue: '-1' },
      { exitValue: 'much' },
      { exitValue: '100', transactionExpenses: '-1' },
      { exitValue: '100', treatUnvestedAsAccelerated: 'yes' },
      { exitValue: '100', asOf: '2024-13-01' },
      { exitValue: '100', asOf: '2999-01-01' },
    ]) {
      const res = await waterfall(owner, org.id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    await breakpoints(owner, org.id, { asOf: 'soon' }).expect(400);
    await breakpoints(owner, org.id, { treatUnvestedAsAccelerated: 'maybe' }).expect(400);
    await breakpoints(owner, org.id, { exitValue: '5' }).expect(400);
  });

  it('models the cap table as of a date', async () => {
    const { owner, org, common, alice, carol } = await founderAndSeriesA();
    await issue(owner, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '10000000',
      issueDate: '2025-06-01',
    });
    const before = await waterfall(owner, org.id, {
      exitValue: '100000000',
      asOf: '2025-01-01',
    }).expect(200);
    expect(before.body.asOf).toBe('2025-01-01');
    expect(proceedsOf(before.body.byHolder, carol.id)).toBe('20000000.00');
    const now = await waterfall(owner, org.id, { exitValue: '100000000' }).expect(200);
    expect(proceedsOf(now.body.byHolder, carol.id)).toBe('10000000.00');
  });

  describe('access', () => {
    it('401 without a session', async () => {
      const { org } = await founderAndSeriesA();
      await t.http
        .post(`/v1/captable/${org.id}/model/waterfall`)
        .send({ exitValue: '1' })
        .expect(401);
      await t.http.get(`/v1/captable/${org.id}/model/waterfall/breakpoints`).expect(401);
    });

    it('needs canViewCapTable, both ways', async () => {
      const { owner, org } = await founderAndSeriesA();
      const withIt = await owner
        .post(`/v1/organization/${org.id}/role`)
        .send({ name: 'Modeler', permissions: ['canViewOrganization', 'canViewCapTable'] })
        .expect(201);
      const modeler = await memberAgent(t, owner, org.id, withIt.body.id);
      const shareholder = await memberAgent(t, owner, org.id, 'Shareholder');
      await waterfall(modeler.agent, org.id, { exitValue: '1000' }).expect(200);
      await breakpoints(modeler.agent, org.id).expect(200);
      await waterfall(shareholder.agent, org.id, { exitValue: '1000' })
        .expect(403)
        .expect(errorBody(403));
      await breakpoints(shareholder.agent, org.id).expect(403).expect(errorBody(403));
    });

    it('another organization is refused (403) without a word of its cap table; unknown 404', async () => {
      const mine = await founderAndSeriesA();
      const theirs = await founderAndSeriesA();
      const refused = await waterfall(mine.owner, theirs.org.id, { exitValue: '1000' }).expect(403);
      expect(refused.body).toEqual(ERROR_BODIES[403]);
      const refusedPoints = await breakpoints(mine.owner, theirs.org.id).expect(403);
      expect(refusedPoints.body).toEqual(ERROR_BODIES[403]);
      await waterfall(mine.owner, randomUUID(), { exitValue: '1000' })
        .expect(404)
        .expect(errorBody(404));
    });
  });
});
