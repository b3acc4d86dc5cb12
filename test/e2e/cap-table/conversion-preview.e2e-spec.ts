import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { createHolding } from './holdings-fixtures';
import { ownerWithOrg } from '../../support/world';

/**
 * The dashboard's fully diluted figures count notes and SAFEs as converted at the latest
 * valuation: the shares a conversion at that price on that day then issues, counted on the same
 * capitalization (preferred as converted to common).
 */
describe('the dashboard’s as-converted preview and the conversion', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const FINANCING = '2024-06-01';

  /**
   * 1,000,000 common shares and 500,000 Seed Preferred converting 2 for 1 (1,000,000 as
   * converted): 2,000,000 shares before the financing, 1,500,000 issued. A valuation of $2 a
   * share on the financing date, and a Series A class to convert into.
   */
  async function capTable() {
    const { owner, org } = await ownerWithOrg(t, 'Ratio Two Inc.');
    const common = await createSecurity(owner.agent, org.id);
    const seed = await createSecurity(owner.agent, org.id, {
      name: 'Seed Preferred',
      classType: 'preferred',
      idPrefix: 'PS-',
      seniority: 1,
      conversionRatio: '2',
    });
    const seriesA = await createSecurity(owner.agent, org.id, {
      name: 'Series A Preferred',
      classType: 'preferred',
      idPrefix: 'PA-',
      seniority: 2,
    });
    const founder = await createHolder(owner.agent, org.id, 'Founder');
    const seedInvestor = await createHolder(owner.agent, org.id, 'Seed Investor');
    const holder = await createHolder(owner.agent, org.id, 'Convertible Holder');
    await issue(owner.agent, org.id, {
      member: founder.id,
      security: common.id,
      quantity: '1000000',
    });
    await issue(owner.agent, org.id, {
      member: seedInvestor.id,
      security: seed.id,
      quantity: '500000',
    });
    await owner.agent
      .put('/v1/valuation')
      .send({ organization: org.id, type: '409A', pricePerShare: '2', effectiveDate: FINANCING })
      .expect(200);
    return { owner, org, seriesA, holder };
  }

  type CapTable = Awaited<ReturnType<typeof capTable>>;

  /** The as-converted shares the dashboard of the financing date counts (nothing else dilutes). */
  async function preview(x: CapTable): Promise<string> {
    const res = await x.owner.agent
      .get(`/v1/captable/${x.org.id}/dashboard?asOf=${FINANCING}`)
      .expect(200);
    const body = res.body as { issued: string; fullyDiluted: string };
    return toDecimalString(toDecimal(body.fullyDiluted).minus(body.issued));
  }

  async function converted(x: CapTable, holding: string): Promise<string> {
    const res = await x.owner.agent
      .post(`/v1/holding/${holding}/convert`)
      .send({ date: FINANCING, security: x.seriesA.id, pricePerShare: '2' })
      .expect(201);
    return (res.body as { shareholding: { quantity: string } }).shareholding.quantity;
  }

  it('a note: $100,000 at 6% (30/360) for four months, $102,000 at its $2M cap / 2,000,000 shares = $1', async () => {
    const x = await capTable();
    const note = await createHolding(x.owner.agent, {
      organization: x.org.id,
      member: x.holder.id,
      type: 'convertible_note',
      principal: '100000',
      interestRate: '6',
      interestType: 'simple',
      dayCount: '30/360',
      issueDate: '2024-02-01',
      maturityDate: '2026-02-01',
      valuationCap: '2000000',
    });
    const shown = await preview(x);
    // On 1,500,000 issued shares (the preferred not converted) the cap price would be $1.33...
    // and the preview 76,500.
    expect(shown).toBe('102000');
    expect(await converted(x, note.id)).toBe(shown);
  });

  it('a post-money SAFE: $200,000 at a $4M cap owns 5% of 2,000,000 / 0.95', async () => {
    const x = await capTable();
    const safe = await createHolding(x.owner.agent, {
      organization: x.org.id,
      member: x.holder.id,
      type: 'safe',
      safeType: 'post_money',
      amount: '200000',
      valuationCap: '4000000',
      issueDate: '2024-02-01',
    });
    const shown = await preview(x);
    // 105,263.15... whole shares at $1.90; on 1,500,000 issued the cap price would be $2.53 and
    // the preview 100,000 at the round's $2.
    expect(shown).toBe('105263');
    expect(await converted(x, safe.id)).toBe(shown);
  });
});
