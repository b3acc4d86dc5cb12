import { D, toDecimalString } from '../decimal';
import { CapMathError } from '../errors';
import { modelRound, POOL_ROW_KEY } from './round';
import { RoundModel, RoundModelInput } from './round-types';

const text = (d: { toFixed(): string }) => toDecimalString(new D(d.toFixed()));
const conversions = (r: RoundModel) =>
  r.conversions.map((c) => [c.key, c.basis, text(c.shares), text(c.pricePerShare)]);
const rows = (r: RoundModel) =>
  r.byHolder.map((h) => [
    h.key,
    h.kind,
    text(h.sharesBefore),
    text(h.sharesAfter),
    text(h.fullyDilutedPercentBefore),
    text(h.fullyDilutedPercentAfter),
  ]);
const total = (values: { toFixed(): string }[]) =>
  values.reduce((acc: InstanceType<typeof D>, v) => acc.plus(v.toFixed()), new D(0));

describe('modelRound — a priced round with a pool top-up, worked by hand', () => {
  /*
   * 8,000,000 issued (founders A 5M, B 3M), 2,000,000 options outstanding (C 1.5M, D 0.5M),
   * 1,000,000 pool available: 11,000,000 fully diluted before. $10M pre-money, $2.5M invested
   * ($12.5M post), pool to be 10% of post-money, in the pre-money.
   *
   * Post-money FD = PMFD × 12.5 / 10 = 1.25 × PMFD (investors own 2.5/12.5 = 20%), PMFD = 11M + X.
   * Pool after: 1,000,000 + X = 10% × 1.25 × (11,000,000 + X)
   *   → 0.875 X = 375,000 → X = 428,571.43, rounded up to 428,572 shares.
   * Exact PMFD = 11,428,571.43 → price = $10,000,000 / 11,428,571.43 = $0.875 exactly.
   * Lead: $2,500,000 / $0.875 = 2,857,142.86 → 2,857,142 shares.
   * PMFD = 11,000,000 + 428,572 = 11,428,572; post-money FD = 11,428,572 + 2,857,142 = 14,285,714.
   * After: A 5M / 14,285,714 = 35.0000%, B 21%, C 10.5%, D 3.5%, Lead 19.99999860% → 20%,
   * pool 1,428,572 / 14,285,714 = 10.00000056% → 10% (at least the 10% asked for).
   */
  const input: RoundModelInput = {
    holders: [
      { key: 'a', name: 'Founder A', shares: '5000000' },
      { key: 'b', name: 'Founder B', shares: '3000000' },
      { key: 'c', shares: '0', options: '1500000' },
      { key: 'd', shares: 0, options: '500000' },
    ],
    poolAvailable: '1000000',
    preMoneyValuation: '10000000',
    investments: [{ name: 'Lead', amount: '2500000' }],
    optionPoolTopUp: { postMoneyPercent: '10' },
    closingDate: '2024-06-30',
  };

  it('solves price, pool increase and new shares', () => {
    const r = modelRound(input);
    expect(text(r.pricePerShare)).toBe('0.875');
    expect(text(r.poolIncrease)).toBe('428572');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('11428572');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('14285714');
    expect(text(r.postMoneyValuation)).toBe('12500000');
    expect(text(r.newMoney)).toBe('2500000');
    expect(r.investors.map((i) => [i.name, text(i.amount), text(i.shares)])).toEqual([
      ['Lead', '2500000', '2857142'],
    ]);
    expect(r.conversions).toEqual([]);
  });

  it('lists every holder, the investor and the pool, each percent column summing to 100', () => {
    const r = modelRound(input);
    expect(rows(r)).toEqual([
      // 5/11 = 45.4545..., 3/11 = 27.2727..., 1.5/11 = 13.6363..., 0.5/11 = 4.5454..., 1/11:
      // largest remainders take the two missing 0.0001s (13.6364 and 4.5455).
      ['a', 'holder', '5000000', '5000000', '45.4545', '35'],
      ['b', 'holder', '3000000', '3000000', '27.2727', '21'],
      ['c', 'holder', '1500000', '1500000', '13.6364', '10.5'],
      ['d', 'holder', '500000', '500000', '4.5455', '3.5'],
      ['Lead', 'investor', '0', '2857142', '0', '20'],
      [POOL_ROW_KEY, 'pool', '1000000', '1428572', '9.0909', '10'],
    ]);
    expect(r.byHolder[0].name).toBe('Founder A');
    expect(text(total(r.byHolder.map((h) => h.fullyDilutedPercentBefore)))).toBe('100');
    expect(text(total(r.byHolder.map((h) => h.fullyDilutedPercentAfter)))).toBe('100');
    expect(text(total(r.byHolder.map((h) => h.sharesAfter)))).toBe('14285714');
  });

  it('with the pool increase outside the pre-money, it dilutes the new investor too', () => {
    // PMFD = 11,000,000, price = 10M / 11M = $0.9090...; Lead 2,750,000 shares.
    // 1,000,000 + X = 10% × (11,000,000 + 2,750,000 + X) → 0.9 X = 375,000 → X = 416,666.67
    // → 416,667. Lead owns 2,750,000 / 14,166,667 = 19.4118% < 20%.
    const r = modelRound({ ...input, poolIncludedInPreMoney: false });
    expect(r.pricePerShare.toFixed(10)).toBe('0.9090909091');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('11000000');
    expect(text(r.poolIncrease)).toBe('416667');
    expect(text(r.investors[0].shares)).toBe('2750000');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('14166667');
    expect(text(r.byHolder[4].fullyDilutedPercentAfter)).toBe('19.4118');
  });

  it('leaves the pool alone when it is already above the target', () => {
    const r = modelRound({ ...input, optionPoolTopUp: { postMoneyPercent: '5' } });
    expect(text(r.poolIncrease)).toBe('0');
    // No top-up: price = $10M / 11M.
    expect(r.pricePerShare.equals(new D(10000000).div(11000000))).toBe(true);
  });

  it('keeps fractional units for an LLC: the pool is exactly 10% and the lead exactly 20%', () => {
    const r = modelRound({ ...input, fractional: true });
    expect(text(r.pricePerShare)).toBe('0.875');
    expect(r.poolIncrease.toFixed(6)).toBe('428571.428571');
    const pool = r.byHolder.find((h) => h.kind === 'pool')!;
    expect(pool.sharesAfter.div(r.postMoneyFullyDilutedShares).toFixed(40)).toBe(
      new D('0.1').toFixed(40),
    );
    expect(r.investors[0].shares.div(r.postMoneyFullyDilutedShares).toFixed(40)).toBe(
      new D('0.2').toFixed(40),
    );
  });

  it('takes a fixed increase in shares', () => {
    const r = modelRound({ ...input, optionPoolTopUp: { increase: '500000' } });
    // Price = 10M / 11.5M.
    expect(r.pricePerShare.equals(new D(10000000).div(11500000))).toBe(true);
    expect(text(r.poolIncrease)).toBe('500000');
  });
});

/*
 * YC "Post-Money Safe User Guide", Appendix II (the figures conversion/post-money-safe.spec.ts
 * reproduces instrument by instrument), now through the whole model. 9,250,000 founder shares,
 * 300,000 options outstanding + 350,000 promised (options here), 100,000 pool available;
 * Investor A $200,000 at a $4M post-money cap, Investor B $800,000 at $8M. The guide rounds
 * prices to 4 places (priceDecimals: 4) and states its pool increases as round numbers
 * (1,695,000; 1,573,000...), which `optionPoolTopUp.increase` takes as they are.
 */
const guide: RoundModelInput = {
  holders: [
    { key: 'founders', shares: '9250000' },
    { key: 'employees', shares: '0', options: '650000' },
  ],
  poolAvailable: '100000',
  convertibles: [
    {
      key: 'safe-a',
      holderKey: 'investor-a',
      type: 'post_money_safe',
      amount: '200000',
      valuationCap: '4000000',
    },
    {
      key: 'safe-b',
      holderKey: 'investor-b',
      type: 'post_money_safe',
      amount: '800000',
      valuationCap: '8000000',
    },
  ],
  preMoneyValuation: '15000000',
  investments: [{ name: 'Series A', amount: '5000000' }],
  closingDate: '2024-06-30',
  priceDecimals: 4,
};

describe('modelRound — YC Post-Money Safe User Guide, Appendix II', () => {
  it('Example 1, Q2 ($5M at $15M pre, +1,695,000 pool): $1.1144; A 588,235; B 1,176,470; 4,486,719 new; 17,946,424', () => {
    const r = modelRound({ ...guide, optionPoolTopUp: { increase: '1695000' } });
    // Company Capitalization = 10,000,000 / (1 − 5% − 10%) = 11,764,705.88; Safe Prices $0.34, $0.68.
    expect(conversions(r)).toEqual([
      ['safe-a', 'cap', '588235', '0.34'],
      ['safe-b', 'cap', '1176470', '0.68'],
    ]);
    expect(text(r.pricePerShare)).toBe('1.1144');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('13459705');
    expect(text(r.investors[0].shares)).toBe('4486719');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('17946424');
    // The SAFE holders get rows of their own: they held nothing before.
    expect(rows(r).map((row) => row.slice(0, 4))).toEqual([
      ['founders', 'holder', '9250000', '9250000'],
      ['employees', 'holder', '650000', '650000'],
      ['investor-a', 'holder', '0', '588235'],
      ['investor-b', 'holder', '0', '1176470'],
      ['Series A', 'investor', '0', '4486719'],
      [POOL_ROW_KEY, 'pool', '100000', '1795000'],
    ]);
  });

  it('Example 1, Q2 with the pool as "10% post-money": the exact increase is 1,694,570 (the guide says 1,695,000), $1.1145', () => {
    // Exact: 100,000 + X = 10% × (20/15) × (11,764,705.88 + X) → X = 1,694,570.14, price
    // $15M / 13,459,276.02 = $1.114473 → $1.1145 (the guide's rounder 1,695,000 gives $1.1144).
    // At the rounded $1.1145 the pool is re-solved: 4,486,316 new shares, increase 1,694,559.
    const r = modelRound({ ...guide, optionPoolTopUp: { postMoneyPercent: '10' } });
    expect(text(r.pricePerShare)).toBe('1.1145');
    expect(r.pricePerShare.minus('1.1144').abs().lessThanOrEqualTo('0.0001')).toBe(true);
    expect(text(r.poolIncrease)).toBe('1694559');
    expect(Math.abs(r.poolIncrease.toNumber() - 1695000)).toBeLessThan(500);
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([
      ['safe-a', 'cap', '588235'],
      ['safe-b', 'cap', '1176470'],
    ]);
    expect(text(r.investors[0].shares)).toBe('4486316');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('17945580');
    // 1,794,559 ≥ 10% × 17,945,580 = 1,794,558.
    expect(text(r.byHolder.at(-1)!.sharesAfter)).toBe('1794559');
    // Without the 4-place price the exact increase, rounded up, is 1,694,571.
    const exact = modelRound({
      ...guide,
      priceDecimals: undefined,
      optionPoolTopUp: { postMoneyPercent: '10' },
    });
    expect(text(exact.poolIncrease)).toBe('1694571');
    expect(exact.pricePerShare.toFixed(6)).toBe('1.114473');
  });

  it('Example 1, Q5 ($2.2M at $8.8M pre, +1,573,000 pool): $0.6577; A at its cap 590,334; B at the round price 1,216,360', () => {
    const r = modelRound({
      ...guide,
      preMoneyValuation: '8800000',
      investments: [{ name: 'Series A', amount: '2200000' }],
      optionPoolTopUp: { increase: '1573000' },
    });
    expect(text(r.pricePerShare)).toBe('0.6577');
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([
      ['safe-a', 'cap', '590334'],
      ['safe-b', 'round', '1216360'],
    ]);
    expect(r.conversions[0].pricePerShare.toFixed(6)).toBe('0.338791');
    expect(text(r.conversions[1].pricePerShare)).toBe('0.6577');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('13379694');
    expect(text(r.investors[0].shares)).toBe('3344990');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('16724684');
  });

  const example2 = (overrides: Partial<RoundModelInput>): RoundModelInput => ({
    ...guide,
    convertibles: [
      {
        key: 'safe-a',
        holderKey: 'investor-a',
        type: 'pre_money_safe',
        amount: '200000',
        valuationCap: '3800000',
      },
      guide.convertibles![1],
    ],
    ...overrides,
  });

  it('Example 2, Q2 (A holds a pre-money safe at a $3.8M cap): A 615,763 at $0.3248; B 1,179,529; $1.1115; 4,498,425 new', () => {
    // A: $3.8M / (10,000,000 + 1,700,000 increase) = $0.3248 (4 places) → 615,763.
    // B: Company Capitalization = (10,000,000 + 615,763) / 0.9 = 11,795,292.2 → 1,179,529.
    const r = modelRound(example2({ optionPoolTopUp: { increase: '1700000' } }));
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([
      ['safe-a', 'cap', '615763'],
      ['safe-b', 'cap', '1179529'],
    ]);
    expect(text(r.conversions[0].pricePerShare)).toBe('0.3248');
    // $8M / 11,795,292.2: post-money safe prices keep full precision, as in convertPostMoneySafes.
    expect(r.conversions[1].pricePerShare.toFixed(6)).toBe('0.678237');
    expect(text(r.pricePerShare)).toBe('1.1115');
    // $5M / $1.1115 = 4,498,425.55: rounded down; the guide prints 4,498,426 (nearest).
    expect(text(r.investors[0].shares)).toBe('4498425');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('13495292');
  });

  it('Example 2, Q5 ($2.2M at $8.8M pre, +1,575,000 pool): A 609,198 at its cap, B 1,218,397 at the round price $0.6566', () => {
    const r = modelRound(
      example2({
        preMoneyValuation: '8800000',
        investments: [{ name: 'Series A', amount: '2200000' }],
        optionPoolTopUp: { increase: '1575000' },
      }),
    );
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([
      ['safe-a', 'cap', '609198'],
      ['safe-b', 'round', '1218397'],
    ]);
    expect(text(r.conversions[0].pricePerShare)).toBe('0.3283');
    expect(text(r.pricePerShare)).toBe('0.6566');
    // $2.2M / $0.6566 = 3,350,593.97: rounded down; the guide prints 3,350,594 (nearest).
    expect(text(r.investors[0].shares)).toBe('3350593');
  });
});

describe('modelRound — pre-money SAFEs and notes', () => {
  /*
   * 9,000,000 issued + 1,000,000 pool = 10,000,000 before. $20M pre-money, $5M new money.
   * Pre-money SAFE: $500,000 at an $8M cap → $8M / 10,000,000 = $0.80 → 625,000 shares.
   * Note: $1,000,000 at 6% simple, actual/365, 2023-01-01 to the 2024-01-01 closing (365 days)
   * → $60,000 interest, $1,060,000 converts; cap $30M ($3.00), 20% discount → 0.8 × price.
   * PMFD = 10,625,000 + 1,060,000 / (0.8 P) and P × PMFD = $20M:
   *   10,625,000 P + 1,325,000 = 20,000,000 → P = 18,675,000 / 10,625,000 = 747/425 = $1.757647...
   * Note: 1,325,000 / P = 753,848.73 → 753,848 at $1.406118 (0.8 P).
   * New money: $5M / P = 2,844,712.18 → 2,844,712. PMFD = 11,378,848; post = 14,223,560.
   */
  const input: RoundModelInput = {
    holders: [{ key: 'founder', shares: '9000000' }],
    poolAvailable: '1000000',
    convertibles: [
      {
        key: 'safe',
        holderKey: 'angel',
        type: 'pre_money_safe',
        amount: '500000',
        valuationCap: '8000000',
      },
      {
        key: 'note',
        holderKey: 'fund',
        type: 'note',
        amount: '1000000',
        valuationCap: '30000000',
        discount: '0.2',
        interest: {
          annualRate: '0.06',
          interestType: 'simple',
          dayCount: 'actual/365',
          issueDate: '2023-01-01',
        },
      },
    ],
    preMoneyValuation: '20000000',
    investments: [{ name: 'Series A', amount: '5000000' }],
    closingDate: '2024-01-01',
  };

  it('converts the SAFE at its cap and the note with interest at its discount', () => {
    const r = modelRound(input);
    expect(r.pricePerShare.toFixed(20)).toBe(new D(747).div(425).toFixed(20));
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([
      ['safe', 'cap', '625000'],
      ['note', 'discount', '753848'],
    ]);
    expect(text(r.conversions[0].pricePerShare)).toBe('0.8');
    expect(r.conversions[1].pricePerShare.toFixed(6)).toBe('1.406118');
    expect(
      r.conversions.map((c) => [c.type, text(c.amount), text(c.accruedInterest), c.holderKey]),
    ).toEqual([
      ['pre_money_safe', '500000', '0', 'angel'],
      ['note', '1060000', '60000', 'fund'],
    ]);
    expect(text(r.investors[0].shares)).toBe('2844712');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('11378848');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('14223560');
  });

  it('converts the note at its cap when the cap is lower: $10M / 10,000,000 = $1.00 → 1,060,000 shares', () => {
    const r = modelRound({
      ...input,
      convertibles: [
        input.convertibles![0],
        { ...input.convertibles![1], valuationCap: '10000000' },
      ],
    });
    expect(conversions(r)).toEqual([
      ['safe', 'cap', '625000', '0.8'],
      ['note', 'cap', '1060000', '1'],
    ]);
    // PMFD = 10,000,000 + 625,000 + 1,060,000; P = $20M / 11,685,000.
    expect(r.pricePerShare.equals(new D(20000000).div(11685000))).toBe(true);
  });

  it('adds unpaid interest accrued before the accrual start to what the note converts', () => {
    const r = modelRound({
      ...input,
      convertibles: [{ ...input.convertibles![1], unpaidInterest: '40000' }],
    });
    expect(text(r.conversions[0].amount)).toBe('1100000');
    expect(text(r.conversions[0].accruedInterest)).toBe('60000');
  });

  it("counts the pool increase in the pre-money SAFE's capitalization (both solved together)", () => {
    /*
     * 9,000,000 issued + 1,000,000 pool; pre-money SAFE $1M at a $9M cap; $20M pre, $5M new,
     * pool to 10% post-money in the pre-money. SAFE shares = (10,000,000 + X) / 9, so
     * PMFD = (10/9)(10,000,000 + X), post = 1.25 PMFD and
     *   1,000,000 + X = 10% × 1.25 × (10/9) × (10,000,000 + X) → 7.75 X = 3,500,000
     *   → X = 451,612.90 → 451,613. P = $20M / ((10/9) × 10,451,612.90) = 31/18 = $1.72222...
     * SAFE: $9M / 10,451,613 = $0.861111 → 1,161,290 shares; new money 2,903,225.
     */
    const r = modelRound({
      ...input,
      convertibles: [
        {
          key: 'safe',
          holderKey: 'angel',
          type: 'pre_money_safe',
          amount: '1000000',
          valuationCap: '9000000',
        },
      ],
      optionPoolTopUp: { postMoneyPercent: '10' },
    });
    expect(r.pricePerShare.toFixed(20)).toBe(new D(31).div(18).toFixed(20));
    expect(text(r.poolIncrease)).toBe('451613');
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([['safe', 'cap', '1161290']]);
    expect(r.conversions[0].pricePerShare.toFixed(6)).toBe('0.861111');
    expect(text(r.investors[0].shares)).toBe('2903225');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('11612903');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('14516128');
  });

  it('raises the pool increase when rounded prices leave the pool short of its target', () => {
    /*
     * 9,000,000 issued + 1,000,000 pool; note $1M at a 20% discount (no cap); $12M pre-money,
     * $2M new money; pool to 20% post-money in the pre-money; prices to 2 places.
     * Exact: P·(E − A) + 1M / 0.8 + 20% × $14M = $12M → P = (12M − 1.25M − 2.8M) / 9M = $0.8833
     * → $0.88. At $0.88 the exact increase is 2,173,295.45, but the note converts at
     * 0.88 × 0.8 = $0.704 → $0.70 (2 places): 1,428,571 shares instead of 1,420,454.5, so
     * 2,173,296 would leave the pool short. Smallest whole X with 1,000,000 + X ≥ 20% ×
     * (10,000,000 + X + 1,428,571 + 2,272,727): 0.8 X ≥ 1,740,259.6 → X = 2,175,325.
     */
    const r = modelRound({
      holders: [{ key: 'founder', shares: '9000000' }],
      poolAvailable: '1000000',
      convertibles: [
        { key: 'note', holderKey: 'fund', type: 'note', amount: '1000000', discount: '0.2' },
      ],
      preMoneyValuation: '12000000',
      investments: [{ name: 'Series A', amount: '2000000' }],
      optionPoolTopUp: { postMoneyPercent: '20' },
      closingDate: '2024-01-01',
      priceDecimals: 2,
    });
    expect(text(r.pricePerShare)).toBe('0.88');
    expect(conversions(r)).toEqual([['note', 'discount', '1428571', '0.7']]);
    expect(text(r.investors[0].shares)).toBe('2272727');
    expect(text(r.poolIncrease)).toBe('2175325');
    expect(text(r.postMoneyFullyDilutedShares)).toBe('15876623');
    // 3,175,325 ≥ 20% × 15,876,623 = 3,175,324.6; one share fewer would not be.
    expect(text(r.byHolder.at(-1)!.sharesAfter)).toBe('3175325');
  });

  it("adds conversion shares to an existing holder's row", () => {
    const r = modelRound({
      ...input,
      convertibles: input.convertibles!.map((c) => ({ ...c, holderKey: 'founder' })),
    });
    expect(rows(r)[0].slice(0, 4)).toEqual(['founder', 'holder', '9000000', '10378848']);
    expect(r.byHolder.map((h) => h.kind)).toEqual(['holder', 'investor', 'pool']);
  });
});

describe('modelRound — options', () => {
  it('convertSafes: false leaves the SAFEs out of the round and of the capitalization', () => {
    const r = modelRound({
      ...guide,
      convertSafes: false,
      optionPoolTopUp: { increase: '1695000' },
    });
    expect(r.conversions).toEqual([]);
    // $15M / (10,000,000 + 1,695,000) = $1.28259... → $1.2826.
    expect(text(r.pricePerShare)).toBe('1.2826');
    expect(text(r.preMoneyFullyDilutedShares)).toBe('11695000');
    expect(r.byHolder.map((h) => h.key)).toEqual([
      'founders',
      'employees',
      'Series A',
      POOL_ROW_KEY,
    ]);
  });

  it('convertNotes: false converts the SAFEs only', () => {
    const r = modelRound({
      holders: [{ key: 'founder', shares: '10000000' }],
      poolAvailable: 0,
      convertibles: [
        { key: 'note', holderKey: 'x', type: 'note', amount: '1000000', discount: '0.2' },
        {
          key: 'safe',
          holderKey: 'y',
          type: 'post_money_safe',
          amount: '1000000',
          valuationCap: '10000000',
        },
      ],
      preMoneyValuation: '20000000',
      investments: [],
      convertNotes: false,
      closingDate: '2024-01-01',
    });
    // The safe owns 10% of 10,000,000 / 0.9 = 11,111,111.1: 1,111,111 shares at $0.90;
    // price = $20M / 11,111,111.1 = $1.80.
    expect(conversions(r).map((c) => c.slice(0, 3))).toEqual([['safe', 'cap', '1111111']]);
    expect(r.conversions[0].pricePerShare.toFixed(10)).toBe('0.9000000000');
    expect(r.pricePerShare.toFixed(10)).toBe('1.8000000000');
  });

  it("reports an MFN safe without terms as converting at the round price on the 'mfn' basis", () => {
    const r = modelRound({
      holders: [{ key: 'founder', shares: '8000000' }],
      poolAvailable: '2000000',
      convertibles: [
        { key: 'mfn', holderKey: 'x', type: 'post_money_safe', amount: '500000', mfn: true },
        { key: 'plain', holderKey: 'y', type: 'pre_money_safe', amount: '500000' },
      ],
      preMoneyValuation: '11000000',
      investments: [{ name: 'Seed', amount: '1000000' }],
      closingDate: '2024-01-01',
    });
    // PMFD = 10,000,000 + 1,000,000 / P and P × PMFD = $11M → P = $1; 500,000 shares each.
    expect(conversions(r)).toEqual([
      ['mfn', 'mfn', '500000', '1'],
      ['plain', 'round', '500000', '1'],
    ]);
    expect(text(r.investors[0].shares)).toBe('1000000');
  });

  it('prices a round with no convertibles and no top-up at pre-money / fully diluted', () => {
    const r = modelRound({
      holders: [{ key: 'f', shares: '7000000', options: '2000000' }],
      poolAvailable: '1000000',
      preMoneyValuation: '9000000',
      investments: [
        { name: 'Lead', amount: '3000000' },
        { name: 'Lead', amount: '1000000' },
      ],
      closingDate: '2024-01-01',
    });
    expect(text(r.pricePerShare)).toBe('0.9');
    expect(r.investors.map((i) => text(i.shares))).toEqual(['3333333', '1111111']);
    expect(text(r.postMoneyFullyDilutedShares)).toBe('14444444');
    // Two investments under one name stay two rows.
    expect(r.byHolder.filter((h) => h.kind === 'investor')).toHaveLength(2);
  });
});

describe('modelRound — validation', () => {
  const base: RoundModelInput = {
    holders: [{ key: 'f', shares: '1000000' }],
    poolAvailable: '100000',
    convertibles: [
      {
        key: 's',
        holderKey: 'x',
        type: 'post_money_safe',
        amount: '100000',
        valuationCap: '5000000',
      },
    ],
    preMoneyValuation: '5000000',
    investments: [{ name: 'Lead', amount: '1000000' }],
    closingDate: '2024-01-01',
  };
  const fails = (overrides: Partial<RoundModelInput>, message: RegExp) => {
    expect(() => modelRound({ ...base, ...overrides })).toThrow(CapMathError);
    expect(() => modelRound({ ...base, ...overrides })).toThrow(message);
  };
  const safe = base.convertibles![0];

  it('names the field of bad numbers and dates', () => {
    fails({ holders: [{ key: 'f', shares: '-1' }] }, /shares of holder "f"/);
    fails({ holders: [{ key: 'f', shares: '1e6' }] }, /shares of holder "f"/);
    fails({ holders: [{ key: 'f', shares: '1', options: 'x' }] }, /options of holder "f"/);
    fails({ poolAvailable: '-5' }, /poolAvailable/);
    fails({ preMoneyValuation: '0' }, /preMoneyValuation/);
    fails({ investments: [{ name: 'Lead', amount: '-1' }] }, /amount of investment "Lead"/);
    fails({ investments: [{ name: '', amount: '1' }] }, /investments\[0\]\.name/);
    fails({ closingDate: '2024-02-30' }, /closingDate/);
    fails({ priceDecimals: -1 }, /priceDecimals/);
  });

  it('names the convertible and its field', () => {
    fails({ convertibles: [{ ...safe, amount: '0' }] }, /amount of convertible "s"/);
    fails({ convertibles: [{ ...safe, valuationCap: '0' }] }, /valuationCap of convertible "s"/);
    fails({ convertibles: [{ ...safe, discount: '1' }] }, /discount of convertible "s"/);
    fails({ convertibles: [{ ...safe, discount: '20' }] }, /discount of convertible "s"/);
    fails({ convertibles: [{ ...safe, holderKey: '' }] }, /holderKey of convertible "s"/);
    fails({ convertibles: [{ ...safe, type: 'warrant' as never }] }, /type of convertible "s"/);
    fails({ convertibles: [safe, safe] }, /duplicate key "s"/);
    fails(
      {
        convertibles: [
          {
            ...safe,
            interest: {
              annualRate: '0.05',
              interestType: 'simple',
              dayCount: 'actual/365',
              issueDate: '2023-01-01',
            },
          },
        ],
      },
      /only notes accrue interest/,
    );
    const note = {
      key: 'n',
      holderKey: 'x',
      type: 'note' as const,
      amount: '100000',
      interest: {
        annualRate: '0.05',
        interestType: 'simple' as const,
        dayCount: 'actual/365' as const,
        issueDate: '2024-06-01',
      },
    };
    fails({ convertibles: [note] }, /interest\.issueDate of convertible "n".*after closingDate/);
    fails(
      {
        convertibles: [
          {
            ...note,
            interest: { ...note.interest, issueDate: '2023-01-01', dayCount: '30/365' as never },
          },
        ],
      },
      /interest\.dayCount of convertible "n"/,
    );
    fails(
      {
        convertibles: [
          { ...note, interest: { ...note.interest, issueDate: '2023-01-01', annualRate: '-0.01' } },
        ],
      },
      /interest\.annualRate of convertible "n"/,
    );
  });

  it('rejects a bad pool top-up', () => {
    fails({ optionPoolTopUp: { postMoneyPercent: '100' } }, /postMoneyPercent/);
    fails({ optionPoolTopUp: { postMoneyPercent: '-1' } }, /postMoneyPercent/);
    fails({ optionPoolTopUp: { increase: '10.5' } }, /optionPoolTopUp\.increase/);
    fails(
      { optionPoolTopUp: { postMoneyPercent: '10', increase: '5' } as never },
      /exactly one of postMoneyPercent and increase/,
    );
    fails({ optionPoolTopUp: {} as never }, /exactly one/);
  });

  it('rejects rounds that cannot exist', () => {
    fails({ holders: [{ key: 'f', shares: '0' }], poolAvailable: '0' }, /greater than zero/);
    fails(
      {
        holders: [
          { key: 'f', shares: '1' },
          { key: 'f', shares: '1' },
        ],
      },
      /duplicate key "f"/,
    );
    // Capped post-money SAFEs buying 100% of the company.
    fails({ convertibles: [{ ...safe, amount: '5000000' }] }, /100% or more|no solution/);
    // A pool in the pre-money cannot be 90% of the post-money when the investors buy 1/6.
    fails({ optionPoolTopUp: { postMoneyPercent: '90' } }, /no solution|cannot be reached/);
    // SAFEs at the round price worth more than the pre-money valuation.
    fails(
      { convertibles: [{ key: 'big', holderKey: 'x', type: 'pre_money_safe', amount: '6000000' }] },
      /no solution/,
    );
  });
});
