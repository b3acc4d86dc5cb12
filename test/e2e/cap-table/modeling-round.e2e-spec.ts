import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES, errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { sumOfPercents } from '../../support/decimal-sums';
import { createHolding, createPlan, ledgerLog } from './holdings-fixtures';

interface Row {
  member: string | null;
  name: string;
  kind: 'holder' | 'investor' | 'pool';
  sharesBefore: string;
  sharesAfter: string;
  fullyDilutedPercentBefore: string;
  fullyDilutedPercentAfter: string;
}

describe('POST /v1/captable/:organization/model/round', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const model = (agent: Agent, orgId: string, body: Record<string, unknown>) =>
    agent.post(`/v1/captable/${orgId}/model/round`).send(body);

  /** Alice 6,000,000 and Bob 4,000,000 common. */
  async function twoFounders() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Round Co');
    const common = await createSecurity(owner.agent, org.id, { authorizedShares: '50000000' });
    const alice = await createHolder(owner.agent, org.id, 'Alice Able');
    const bob = await createHolder(owner.agent, org.id, 'Bob Baker');
    await issue(owner.agent, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '6000000',
    });
    await issue(owner.agent, org.id, { member: bob.id, security: common.id, quantity: '4000000' });
    return { owner: owner.agent, org, common, alice, bob };
  }

  it('a plain priced round: price = pre-money / fully diluted shares, investors get amount / price', async () => {
    const { owner, org, alice, bob } = await twoFounders();
    const res = await model(owner, org.id, {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead Ventures', amount: '2500000' }],
      closingDate: '2026-01-15',
    }).expect(200);
    expect(res.body).toMatchObject({
      pricePerShare: '1',
      preMoneyFullyDilutedShares: '10000000',
      postMoneyValuation: '12500000',
      postMoneyFullyDilutedShares: '12500000',
      newMoney: '2500000',
      poolIncrease: '0',
      conversions: [],
      investors: [{ name: 'Lead Ventures', amount: '2500000', shares: '2500000' }],
    });
    const rows = res.body.byHolder as Row[];
    const byName = new Map(rows.map((r) => [r.name, r]));
    expect(byName.get('Alice Able')).toMatchObject({
      member: alice.id,
      kind: 'holder',
      sharesBefore: '6000000',
      sharesAfter: '6000000',
      fullyDilutedPercentBefore: '60',
      fullyDilutedPercentAfter: '48',
    });
    expect(byName.get('Bob Baker')).toMatchObject({
      member: bob.id,
      fullyDilutedPercentAfter: '32',
    });
    expect(byName.get('Lead Ventures')).toMatchObject({
      member: null,
      kind: 'investor',
      sharesBefore: '0',
      sharesAfter: '2500000',
      fullyDilutedPercentAfter: '20',
    });
    expect(rows.filter((r) => r.kind === 'pool').every((r) => r.member === null)).toBe(true);
    expect(sumOfPercents(rows.map((r) => r.fullyDilutedPercentAfter))).toBe(1_000_000n);
  });

  it('a pool top-up in the pre-money: the whole unallocated pool is the asked percent after the round', async () => {
    const { owner, org, common, alice } = await twoFounders();
    const plan = await createPlan(owner, org.id, common.id, {
      sharesReserved: '1000000',
      pools: [{ name: 'Employees', sharesReserved: '1000000' }],
    });
    await createHolding(owner, {
      organization: org.id,
      member: alice.id,
      type: 'option_iso',
      plan: plan.id,
      pool: plan.pools[0].id,
      quantity: '500000',
      exercisePrice: '0.1',
      grantDate: '2024-01-01',
    });
    const res = await model(owner, org.id, {
      preMoneyValuation: '20000000',
      investments: [
        { name: 'Lead', amount: '4000000' },
        { name: 'Angel', amount: '1000000' },
      ],
      optionPoolTopUp: { postMoneyPercent: '10' },
      closingDate: '2026-01-15',
    }).expect(200);
    const rows = res.body.byHolder as Row[];
    const pool = rows.find((r) => r.kind === 'pool')!;
    const post = Number(res.body.postMoneyFullyDilutedShares);
    expect(pool.sharesBefore).toBe('500000');
    expect(Number(pool.sharesAfter)).toBe(500000 + Number(res.body.poolIncrease));
    // At least the target, and not a whole share more than it needs.
    expect(Number(pool.sharesAfter) / post).toBeGreaterThanOrEqual(0.1);
    expect(Number(pool.sharesAfter) - 1).toBeLessThan(0.1 * post);
    // The increase is in the pre-money: 10M issued + 0.5M options + 0.5M pool + the increase.
    expect(Number(res.body.preMoneyFullyDilutedShares)).toBe(
      11_000_000 + Number(res.body.poolIncrease),
    );
    // Exactly: 1,000,000 new pool shares make 1.5M of 15M post-money at 20M / 12M a share.
    expect(res.body).toMatchObject({
      poolIncrease: '1000000',
      postMoneyFullyDilutedShares: '15000000',
      investors: [
        { name: 'Lead', amount: '4000000', shares: '2400000' },
        { name: 'Angel', amount: '1000000', shares: '600000' },
      ],
    });
    expect(Number(res.body.pricePerShare)).toBeCloseTo(
      20_000_000 / Number(res.body.preMoneyFullyDilutedShares),
      10,
    );
    // Alice's options count in her fully diluted shares; every investor owns amount / post-money.
    expect(rows.find((r) => r.member === alice.id)!.sharesBefore).toBe('6500000');
    for (const name of ['Lead', 'Angel']) {
      const investor = rows.find((r) => r.name === name)!;
      const amount = name === 'Lead' ? 4_000_000 : 1_000_000;
      expect(Number(investor.fullyDilutedPercentAfter)).toBeCloseTo((amount / 25_000_000) * 100, 3);
    }
    for (const r of rows)
      expect(Number(r.sharesAfter)).toBeGreaterThanOrEqual(Number(r.sharesBefore));
    expect(sumOfPercents(rows.map((r) => r.fullyDilutedPercentAfter))).toBe(1_000_000n);
  });

  it('converts a post-money SAFE at its cap price, and leaves it out when convertSafes is false', async () => {
    const { owner, org, bob } = await twoFounders();
    const safe = await createHolding(owner, {
      organization: org.id,
      member: bob.id,
      type: 'safe',
      amount: '1000000',
      safeType: 'post_money',
      valuationCap: '10000000',
      issueDate: '2024-01-01',
    });
    const body = {
      preMoneyValuation: '20000000',
      investments: [{ name: 'Lead', amount: '5000000' }],
      closingDate: '2026-01-15',
    };
    const res = await model(owner, org.id, body).expect(200);
    expect(res.body.conversions).toHaveLength(1);
    const conversion = res.body.conversions[0];
    expect(conversion).toMatchObject({
      holding: safe.id,
      member: bob.id,
      type: 'safe',
      amount: '1000000',
      basis: 'cap',
    });
    // The SAFE owns 10% of the company capitalization it converts into: 1,111,111 of 11,111,111.
    expect(conversion.shares).toBe('1111111');
    expect(res.body.preMoneyFullyDilutedShares).toBe('11111111');
    // Cap / the capitalization with the SAFE's exact (unrounded) shares: 10M / 11,111,111.1̅.
    expect(conversion.pricePerShare).toBe('0.9');
    const bobRow = (res.body.byHolder as Row[]).find((r) => r.member === bob.id)!;
    expect(bobRow.sharesAfter).toBe('5111111');

    const without = await model(owner, org.id, { ...body, convertSafes: false }).expect(200);
    expect(without.body.conversions).toEqual([]);
    expect(without.body.preMoneyFullyDilutedShares).toBe('10000000');
    expect(without.body.pricePerShare).toBe('2');
  });

  it('converts a note with its accrued interest at the discounted round price, solved exactly', async () => {
    const { owner, org, bob } = await twoFounders();
    const note = await createHolding(owner, {
      organization: org.id,
      member: bob.id,
      type: 'convertible_note',
      principal: '100000',
      interestRate: '6',
      interestType: 'simple',
      dayCount: '30/360',
      discount: '20',
      issueDate: '2024-01-01',
      maturityDate: '2027-01-01',
    });
    const res = await model(owner, org.id, {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-01',
    }).expect(200);
    // 112,000 converts at 0.8 P, and P = 10M / (10M + 112,000 / 0.8P): P = 0.986 exactly.
    expect(res.body.pricePerShare).toBe('0.986');
    expect(res.body.conversions).toEqual([
      {
        holding: note.id,
        member: bob.id,
        type: 'convertible_note',
        amount: '112000',
        accruedInterest: '12000',
        shares: '141987',
        pricePerShare: '0.7888',
        basis: 'discount',
      },
    ]);
    expect(res.body.preMoneyFullyDilutedShares).toBe('10141987');
    const notesKept = await model(owner, org.id, {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-01',
      convertNotes: false,
    }).expect(200);
    expect(notesKept.body).toMatchObject({ pricePerShare: '1', conversions: [] });
  });

  it('counts preferred shares as converted to common (conversionRatio)', async () => {
    const { owner, org } = await twoFounders();
    const seed = await createSecurity(owner, org.id, {
      name: 'Seed Preferred',
      classType: 'preferred',
      idPrefix: 'SP-',
      authorizedShares: '1000000',
      conversionRatio: '2',
    });
    const carol = await createHolder(owner, org.id, 'Carol Cole');
    await issue(owner, org.id, { member: carol.id, security: seed.id, quantity: '500000' });
    const res = await model(owner, org.id, {
      preMoneyValuation: '11000000',
      investments: [],
      closingDate: '2026-01-15',
    }).expect(200);
    expect(res.body).toMatchObject({ pricePerShare: '1', preMoneyFullyDilutedShares: '11000000' });
    const carolRow = (res.body.byHolder as Row[]).find((r) => r.member === carol.id)!;
    expect(carolRow).toMatchObject({ sharesBefore: '1000000', sharesAfter: '1000000' });
  });

  it('a change to the cap table or a holder is seen by the next model at once', async () => {
    const { owner, org, common, alice } = await twoFounders();
    const body = {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-15',
    };
    const first = await model(owner, org.id, body).expect(200);
    expect(first.body.preMoneyFullyDilutedShares).toBe('10000000');
    await issue(owner, org.id, { member: alice.id, security: common.id, quantity: '2000000' });
    const second = await model(owner, org.id, body).expect(200);
    expect(second.body.preMoneyFullyDilutedShares).toBe('12000000');
    await owner
      .patch(`/v1/organization/${org.id}/member/${alice.id}`)
      .send({ name: 'Alice Renamed' })
      .expect(200);
    const third = await model(owner, org.id, body).expect(200);
    expect((third.body.byHolder as Row[]).find((r) => r.member === alice.id)!.name).toBe(
      'Alice Renamed',
    );
  });

  it('stores nothing', async () => {
    const { owner, org } = await twoFounders();
    const db = t.get<DataSource>(DataSource);
    const before = await ledgerLog(db, org.id);
    await model(owner, org.id, {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      optionPoolTopUp: { postMoneyPercent: '15' },
      closingDate: '2026-01-15',
    }).expect(200);
    expect(await ledgerLog(db, org.id)).toEqual(before);
  });

  it('models the cap table of asOf, and refuses an asOf in the future', async () => {
    const { owner, org, common, alice } = await twoFounders();
    await issue(owner, org.id, {
      member: alice.id,
      security: common.id,
      quantity: '10000000',
      issueDate: '2025-06-01',
    });
    const body = {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-15',
    };
    const then = await model(owner, org.id, { ...body, asOf: '2025-01-01' }).expect(200);
    expect(then.body).toMatchObject({ asOf: '2025-01-01', preMoneyFullyDilutedShares: '10000000' });
    const now = await model(owner, org.id, body).expect(200);
    expect(now.body.preMoneyFullyDilutedShares).toBe('20000000');
    await model(owner, org.id, { ...body, asOf: '2999-01-01' }).expect(400);
  });

  it('an organization without shares has no price: 400 that says so', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const res = await model(owner.agent, org.id, {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-15',
    }).expect(400);
    expect(res.body.message).toEqual(expect.stringMatching(/shares/));
  });

  it('refuses bad input with 400', async () => {
    const { owner, org } = await twoFounders();
    const good = {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-15',
    };
    const bad: Record<string, unknown>[] = [
      { ...good, preMoneyValuation: '0' },
      { ...good, preMoneyValuation: '-5' },
      { ...good, preMoneyValuation: 'lots' },
      { ...good, investments: [{ name: 'Lead', amount: '0' }] },
      { ...good, investments: [{ name: '', amount: '10' }] },
      { ...good, investments: 'Lead' },
      {
        ...good,
        investments: [
          { name: 'Lead', amount: '10' },
          { name: 'Lead', amount: '20' },
        ],
      },
      { ...good, optionPoolTopUp: { postMoneyPercent: '100' } },
      { ...good, optionPoolTopUp: { postMoneyPercent: '-1' } },
      { ...good, closingDate: '2026-02-30' },
      { preMoneyValuation: '10000000', investments: [] },
      { ...good, poolIncludedInPreMoney: 'yes' },
      { ...good, priceDecimals: 11 },
    ];
    for (const body of bad) {
      const res = await model(owner, org.id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body).toMatchObject({ message: expect.anything() });
    }
  });

  describe('access', () => {
    const body = {
      preMoneyValuation: '10000000',
      investments: [{ name: 'Lead', amount: '1000000' }],
      closingDate: '2026-01-15',
    };

    it('401 without a session', async () => {
      const { org } = await twoFounders();
      const res = await t.http.post(`/v1/captable/${org.id}/model/round`).send(body);
      expect(res.status).toBe(401);
    });

    it('needs canViewCapTable: a role with it may, one without it may not', async () => {
      const { owner, org } = await twoFounders();
      const withIt = await owner
        .post(`/v1/organization/${org.id}/role`)
        .send({ name: 'Modeler', permissions: ['canViewOrganization', 'canViewCapTable'] })
        .expect(201);
      const without = await owner
        .post(`/v1/organization/${org.id}/role`)
        .send({ name: 'Looker', permissions: ['canViewOrganization'] })
        .expect(201);
      const modeler = await memberAgent(t, owner, org.id, withIt.body.id);
      const looker = await memberAgent(t, owner, org.id, without.body.id);
      await model(modeler.agent, org.id, body).expect(200);
      await model(looker.agent, org.id, body).expect(403).expect(errorBody(403));
    });

    it('another organization is refused (403) without a word of its cap table; unknown 404', async () => {
      const { owner: a, org: orgA } = await twoFounders();
      const { org: orgB } = await twoFounders();
      await model(a, orgA.id, body).expect(200);
      const refused = await model(a, orgB.id, body).expect(403);
      expect(refused.body).toEqual(ERROR_BODIES[403]);
      expect(JSON.stringify(refused.body)).not.toContain('Alice');
      await model(a, randomUUID(), body).expect(404).expect(errorBody(404));
    });
  });
});
