import Decimal from 'decimal.js';
import { D } from '../decimal';
import { CapMathError } from '../errors';
import { waterfall, waterfallBreakpoints } from './waterfall';
import { buildWaterfallModel } from './waterfall-model';
import { solveWaterfall } from './waterfall-solve';
import { WaterfallInput, WaterfallResult, WaterfallStructure } from './waterfall-types';

// Results as plain strings, so expectations read like the hand computations.
const money = (d: Decimal) => d.toFixed(2);
const classes = (r: WaterfallResult) =>
  Object.fromEntries(
    r.byClass.map((c) => [
      c.key,
      [money(c.preference), money(c.participation), c.converted, money(c.proceeds)],
    ]),
  );
const holders = (r: WaterfallResult) =>
  Object.fromEntries(r.byHolder.map((h) => [h.holderKey, money(h.proceeds)]));
const at = (structure: WaterfallStructure, exitValue: string) =>
  waterfall({ ...structure, exitValue });
/** [exit value, its events' kinds joined by '+', the classes whose slope changes]. */
const breakpointValues = (structure: WaterfallStructure) =>
  waterfallBreakpoints(structure).map((b) => [
    b.exitValue.toFixed(),
    b.events.map((e) => e.kind).join('+'),
    b.classKeys,
  ]);

/** Exact payouts of every class, option and convertible (model order) at an exit value. */
const exactPayouts = (structure: WaterfallStructure, exitValue: Decimal.Value) => {
  const model = buildWaterfallModel(structure);
  const net = new D(exitValue).minus(model.expenses);
  return solveWaterfall(model, net.isNegative() ? new D(0) : net).payouts;
};
/** Slopes of every payout over [e − h, e] and [e, e + h]. */
const slopesAround = (structure: WaterfallStructure, e: Decimal, h: Decimal) => {
  const below = exactPayouts(structure, e.minus(h));
  const mid = exactPayouts(structure, e);
  const above = exactPayouts(structure, e.plus(h));
  return mid.map((m, i) => ({
    left: m.minus(below[i]).div(h),
    right: above[i].minus(m).div(h),
  }));
};
const slopeChanges = (structure: WaterfallStructure, e: Decimal, h = new D(1000)) =>
  slopesAround(structure, e, h).some((s) => s.left.minus(s.right).abs().greaterThan('1e-20'));

/*
 * One 1x non-participating Series A: 1,000,000 shares bought at $1 (preference $1,000,000),
 * beside 4,000,000 common shares. It converts once a common share is worth more than $1,
 * i.e. above an exit of $1M + 4M × $1 = $5M; converted it owns 1/5 of everything.
 */
const singlePreferred: WaterfallStructure = {
  classes: [
    { key: 'common', name: 'Common', kind: 'common' },
    { key: 'a', name: 'Series A', kind: 'preferred', seniority: 1, originalIssuePrice: '1' },
  ],
  holdings: [
    { holderKey: 'founder', classKey: 'common', shares: '4000000' },
    { holderKey: 'fund', classKey: 'a', shares: '1000000' },
  ],
};

describe('waterfall: one non-participating preferred class', () => {
  it('below the preference: everything to the preferred ($600k)', () => {
    const r = at(singlePreferred, '600000');
    expect(classes(r)).toEqual({
      common: ['0.00', '0.00', false, '0.00'],
      a: ['600000.00', '0.00', false, '600000.00'],
    });
    expect(r.commonSharePrice.toFixed()).toBe('0');
  });

  it('below the conversion point: preference, then common ($3M: $1M + 4M × $0.50)', () => {
    const r = at(singlePreferred, '3000000');
    expect(classes(r)).toEqual({
      common: ['0.00', '2000000.00', false, '2000000.00'],
      a: ['1000000.00', '0.00', false, '1000000.00'],
    });
    expect(r.commonSharePrice.toFixed()).toBe('0.5');
    expect(holders(r)).toEqual({ founder: '2000000.00', fund: '1000000.00' });
    expect(r.byHolder.map((h) => h.percentOfProceeds.toFixed())).toEqual(['66.6667', '33.3333']);
  });

  it('at the conversion point ($5M) converting and not pay the same: it keeps its preference', () => {
    const r = at(singlePreferred, '5000000');
    expect(classes(r)).toEqual({
      common: ['0.00', '4000000.00', false, '4000000.00'],
      a: ['1000000.00', '0.00', false, '1000000.00'],
    });
  });

  it('above the conversion point: converts and shares pro rata ($10M: 1/5 = $2M)', () => {
    const r = at(singlePreferred, '10000000');
    expect(classes(r)).toEqual({
      common: ['0.00', '8000000.00', false, '8000000.00'],
      a: ['0.00', '2000000.00', true, '2000000.00'],
    });
    expect(r.commonSharePrice.toFixed()).toBe('2');
    expect(r.distributable.toFixed()).toBe('10000000');
  });

  it('breakpoints: preference paid at $1M, conversion at $5M', () => {
    // At $1M A stops growing and common starts; at $5M A takes 1/5 of each dollar, common 4/5.
    expect(breakpointValues(singlePreferred)).toEqual([
      ['1000000', 'preference', ['common', 'a']],
      ['5000000', 'conversion', ['common', 'a']],
    ]);
    const [paid, conversion] = waterfallBreakpoints(singlePreferred);
    expect(paid.events[0].classKey).toBe('a');
    expect(conversion.events[0].classKey).toBe('a');
    expect(conversion.events[0].description).toBe(
      'Series A converts to common: its as-converted value passes its preference of 1 per share',
    );
  });
});

/*
 * Series B (seniority 2): 1,000,000 shares at $2, preference $2M. Series A (seniority 1):
 * 1,000,000 at $1, preference $1M. Common: 3,000,000. B is paid in full before A sees a
 * dollar; common starts at $3M. A converts when a common share passes $1: at $3M + 3M × $1 =
 * $6M; B when it passes $2: at $6M + (3M + 1M A) × $1 = $10M.
 */
const stacked: WaterfallStructure = {
  classes: [
    { key: 'common', kind: 'common' },
    { key: 'a', kind: 'preferred', seniority: 1, originalIssuePrice: '1' },
    { key: 'b', kind: 'preferred', seniority: 2, originalIssuePrice: '2' },
  ],
  holdings: [
    { holderKey: 'founders', classKey: 'common', shares: '3000000' },
    { holderKey: 'seed-fund', classKey: 'a', shares: '1000000' },
    { holderKey: 'growth-fund', classKey: 'b', shares: '1000000' },
  ],
};

describe('waterfall: two stacked seniorities', () => {
  it('$1.5M: all to the senior B, nothing to A', () => {
    expect(classes(at(stacked, '1500000'))).toEqual({
      common: ['0.00', '0.00', false, '0.00'],
      a: ['0.00', '0.00', false, '0.00'],
      b: ['1500000.00', '0.00', false, '1500000.00'],
    });
  });

  it('$2.5M: B in full ($2M), A the remaining $0.5M', () => {
    expect(classes(at(stacked, '2500000'))).toEqual({
      common: ['0.00', '0.00', false, '0.00'],
      a: ['500000.00', '0.00', false, '500000.00'],
      b: ['2000000.00', '0.00', false, '2000000.00'],
    });
  });

  it('$4.5M: both preferences, common $1.5M (a share $0.50)', () => {
    const r = at(stacked, '4500000');
    expect(r.commonSharePrice.toFixed()).toBe('0.5');
    expect(classes(r)).toEqual({
      common: ['0.00', '1500000.00', false, '1500000.00'],
      a: ['1000000.00', '0.00', false, '1000000.00'],
      b: ['2000000.00', '0.00', false, '2000000.00'],
    });
  });

  it('$8M: A converts, B keeps its preference — a stable pair of decisions', () => {
    // p = 1 + (8M − 6M) / 4M shares = $1.50: A 1.5M > 1M; B as converted would share
    // (8M − 0) over 5M shares = $1.60 < $2 a share, so B keeps its $2M.
    const r = at(stacked, '8000000');
    expect(r.commonSharePrice.toFixed()).toBe('1.5');
    expect(classes(r)).toEqual({
      common: ['0.00', '4500000.00', false, '4500000.00'],
      a: ['0.00', '1500000.00', true, '1500000.00'],
      b: ['2000000.00', '0.00', false, '2000000.00'],
    });
  });

  it('$15M: both convert: 3/5, 1/5, 1/5', () => {
    expect(classes(at(stacked, '15000000'))).toEqual({
      common: ['0.00', '9000000.00', false, '9000000.00'],
      a: ['0.00', '3000000.00', true, '3000000.00'],
      b: ['0.00', '3000000.00', true, '3000000.00'],
    });
  });

  it('breakpoints: B paid $2M, A paid $3M, A converts $6M, B converts $10M; slopes change at each', () => {
    // Slopes of (common, A, B) per dollar: (0, 0, 1) → (0, 1, 0) → (1, 0, 0) → (3/4, 1/4, 0)
    // → (3/5, 1/5, 1/5).
    expect(breakpointValues(stacked)).toEqual([
      ['2000000', 'preference', ['a', 'b']],
      ['3000000', 'preference', ['common', 'a']],
      ['6000000', 'conversion', ['common', 'a']],
      ['10000000', 'conversion', ['common', 'a', 'b']],
    ]);
    for (const b of waterfallBreakpoints(stacked)) {
      expect(slopeChanges(stacked, b.exitValue)).toBe(true);
    }
    // And nowhere in between.
    for (const e of ['1000000', '2500000', '4500000', '8000000', '12000000']) {
      expect(slopeChanges(stacked, new D(e))).toBe(false);
    }
  });
});

/*
 * Pari passu at seniority 1: A 1,000,000 shares at $1 (preference $1M), B 500,000 at $4
 * ($2M). $1.5M covers half of the $3M: each gets half its preference, A $0.5M and B $1M,
 * and B's two holders split B's $1M 300:200.
 */
describe('waterfall: pari passu shortfall', () => {
  const parity: WaterfallStructure = {
    classes: [
      { key: 'common', kind: 'common' },
      { key: 'a', kind: 'preferred', seniority: 1, originalIssuePrice: '1' },
      { key: 'b', kind: 'preferred', seniority: 1, originalIssuePrice: '4' },
    ],
    holdings: [
      { holderKey: 'founder', classKey: 'common', shares: '1000000' },
      { holderKey: 'x', classKey: 'a', shares: '1000000' },
      { holderKey: 'y', classKey: 'b', shares: '300000' },
      { holderKey: 'z', classKey: 'b', shares: '200000' },
    ],
  };

  it('pro rata to the preference amounts', () => {
    const r = at(parity, '1500000');
    expect(classes(r)).toEqual({
      common: ['0.00', '0.00', false, '0.00'],
      a: ['500000.00', '0.00', false, '500000.00'],
      b: ['1000000.00', '0.00', false, '1000000.00'],
    });
    expect(holders(r)).toEqual({ founder: '0.00', x: '500000.00', y: '600000.00', z: '400000.00' });
  });

  it('one breakpoint for the seniority: both paid in full at $3M, then each conversion', () => {
    // A converts when a share passes $1: $3M + 1M common × $1 = $4M; B when it passes $4:
    // $4M + (1M common + 1M A) × $3 = $10M.
    expect(breakpointValues(parity)).toEqual([
      ['3000000', 'preference+preference', ['common', 'a', 'b']],
      ['4000000', 'conversion', ['common', 'a']],
      ['10000000', 'conversion', ['common', 'a', 'b']],
    ]);
  });
});

/*
 * Series A: 1,000,000 shares at $1, 1x participating, capped at 3x ($3 a share in total);
 * common 1,000,000. Total paid = $1M + 2M × p until A's participation reaches $2M at p = $2
 * (exit $5M); then A stays at $3M while common grows; A converts when p passes $3 (exit
 * $3M + 1M × $3 = $6M), and from there both classes get half.
 */
const capped: WaterfallStructure = {
  classes: [
    { key: 'common', kind: 'common' },
    {
      key: 'a',
      name: 'Series A',
      kind: 'preferred',
      seniority: 1,
      originalIssuePrice: '1',
      liquidationPreferenceMultiple: '1',
      participating: true,
      participationCapMultiple: '3',
    },
  ],
  holdings: [
    { holderKey: 'founder', classKey: 'common', shares: '1000000' },
    { holderKey: 'fund', classKey: 'a', shares: '1000000' },
  ],
};

describe('waterfall: participating preferred with a 3x cap', () => {
  it('below the cap ($3M): preference $1M, then $1 a share each', () => {
    expect(classes(at(capped, '3000000'))).toEqual({
      common: ['0.00', '1000000.00', false, '1000000.00'],
      a: ['1000000.00', '1000000.00', false, '2000000.00'],
    });
  });

  it('at the cap ($5M): A has $3 a share', () => {
    expect(classes(at(capped, '5000000'))).toEqual({
      common: ['0.00', '2000000.00', false, '2000000.00'],
      a: ['1000000.00', '2000000.00', false, '3000000.00'],
    });
  });

  it('between cap and conversion ($5.5M): A stays at $3M, common takes the rest', () => {
    expect(classes(at(capped, '5500000'))).toEqual({
      common: ['0.00', '2500000.00', false, '2500000.00'],
      a: ['1000000.00', '2000000.00', false, '3000000.00'],
    });
  });

  it('above ($8M): converting ($4 a share) beats the $3 cap', () => {
    expect(classes(at(capped, '8000000'))).toEqual({
      common: ['0.00', '4000000.00', false, '4000000.00'],
      a: ['0.00', '4000000.00', true, '4000000.00'],
    });
  });

  it('breakpoints: preference $1M, cap $5M, conversion $6M', () => {
    expect(breakpointValues(capped)).toEqual([
      ['1000000', 'preference', ['common', 'a']],
      ['5000000', 'participation-cap', ['common', 'a']],
      ['6000000', 'conversion', ['common', 'a']],
    ]);
    for (const b of waterfallBreakpoints(capped)) {
      expect(slopeChanges(capped, b.exitValue)).toBe(true);
    }
  });

  it('uncapped participation never converts: $1M + half of the rest at any exit', () => {
    const uncapped: WaterfallStructure = {
      ...capped,
      classes: [capped.classes[0], { ...capped.classes[1], participationCapMultiple: undefined }],
    };
    expect(classes(at(uncapped, '101000000')).a).toEqual([
      '1000000.00',
      '50000000.00',
      false,
      '51000000.00',
    ]);
    expect(breakpointValues(uncapped)).toEqual([['1000000', 'preference', ['common', 'a']]]);
  });
});

/*
 * Common 1,000,000 (founder); an option on 100,000 shares at $2 (employee). Under the money
 * at $1M (a share is worth $1). At $5M it is exercised: the $200,000 exercise price joins the
 * proceeds, p = (5,000,000 + 200,000) / 1,100,000 = $4.7272…, the employee nets
 * 100,000 × (p − 2) = $272,727.27 and common has 1,000,000 × p = $4,727,272.73: $5M in all.
 */
const withOptions: WaterfallStructure = {
  classes: [{ key: 'common', kind: 'common' }],
  holdings: [{ holderKey: 'founder', classKey: 'common', shares: '1000000' }],
  options: [
    { key: 'grant-1', holderKey: 'employee', shares: '100000', exercisePrice: '2' },
    { key: 'grant-2', holderKey: 'employee', shares: '0', exercisePrice: '1.5' },
  ],
};

describe('waterfall: options', () => {
  it('under the money: not exercised, nothing', () => {
    const r = at(withOptions, '1000000');
    expect(r.options.map((o) => [o.key, o.exercised, money(o.proceeds)])).toEqual([
      ['grant-1', false, '0.00'],
      ['grant-2', false, '0.00'],
    ]);
    expect(holders(r)).toEqual({ founder: '1000000.00', employee: '0.00' });
  });

  it('in the money: exercised cashlessly, net of the exercise price', () => {
    const r = at(withOptions, '5000000');
    expect(r.commonSharePrice.toFixed(10)).toBe('4.7272727273');
    expect(r.options.map((o) => [o.key, o.exercised, money(o.proceeds)])).toEqual([
      ['grant-1', true, '272727.27'],
      ['grant-2', true, '0.00'],
    ]);
    expect(holders(r)).toEqual({ founder: '4727272.73', employee: '272727.27' });
  });

  it('breakpoint at the money line: $2 × 1M common shares = $2M (a zero-share grant has none)', () => {
    const breakpoints = waterfallBreakpoints(withOptions);
    expect(
      breakpoints.map((b) => [b.exitValue.toFixed(), b.classKeys, b.events[0].optionKeys]),
    ).toEqual([['2000000', ['common'], ['grant-1']]]);
    expect(breakpoints[0].events).toHaveLength(1);
    expect(slopeChanges(withOptions, new D(2000000))).toBe(true);
  });
});

describe('waterfall: transaction expenses', () => {
  // $10M less $500k: $9.5M distributable; Series A converts (a share is worth 9.5 / 5 = $1.90).
  const withExpenses = { ...singlePreferred, transactionExpenses: '500000' };

  it('come off the top', () => {
    const r = at(withExpenses, '10000000');
    expect(r.distributable.toFixed()).toBe('9500000');
    expect(r.transactionExpenses.toFixed()).toBe('500000');
    expect(classes(r)).toEqual({
      common: ['0.00', '7600000.00', false, '7600000.00'],
      a: ['0.00', '1900000.00', true, '1900000.00'],
    });
  });

  it('leave nothing when they exceed the exit value', () => {
    const r = at(withExpenses, '400000');
    expect(r.distributable.toFixed()).toBe('0');
    expect(r.byHolder.every((h) => h.proceeds.isZero() && h.percentOfProceeds.isZero())).toBe(true);
  });

  it('shift every breakpoint and add their own', () => {
    expect(breakpointValues(withExpenses)).toEqual([
      ['500000', 'expenses', ['a']],
      ['1500000', 'preference', ['common', 'a']],
      ['5500000', 'conversion', ['common', 'a']],
    ]);
  });
});

/*
 * 9,000,000 common shares and a $1M post-money SAFE with a $10M cap: it owns 1M / 10M = 10%
 * of the Liquidity Capitalization L = 9M / (1 − 0.1) = 10M, i.e. 1,000,000 conversion
 * shares at a liquidity price of $10M / 10M = $1. It takes its $1M cash-out while a common
 * share is worth less than $1 (exits up to $1M + 9M × $1 = $10M) and converts above.
 */
const withSafe: WaterfallStructure = {
  classes: [{ key: 'common', kind: 'common' }],
  holdings: [{ holderKey: 'founder', classKey: 'common', shares: '9000000' }],
  convertibles: [
    {
      key: 'safe-1',
      holderKey: 'angel',
      kind: 'post-money-safe',
      amount: '1000000',
      valuationCap: '10000000',
    },
  ],
};

describe('waterfall: SAFEs and notes', () => {
  it('$5M: the SAFE takes its cash-out amount', () => {
    const r = at(withSafe, '5000000');
    expect(r.convertibles.map((c) => [c.converted, money(c.proceeds)])).toEqual([
      [false, '1000000.00'],
    ]);
    expect(r.convertibles[0].conversionPrice?.toFixed()).toBe('1');
    expect(r.convertibles[0].conversionShares.toFixed()).toBe('1000000');
    expect(holders(r)).toEqual({ founder: '4000000.00', angel: '1000000.00' });
  });

  it('$20M: it converts, 10% = $2M', () => {
    const r = at(withSafe, '20000000');
    expect(r.convertibles.map((c) => [c.converted, money(c.proceeds)])).toEqual([
      [true, '2000000.00'],
    ]);
    expect(holders(r)).toEqual({ founder: '18000000.00', angel: '2000000.00' });
  });

  it('breakpoints: cash-out paid at $1M, conversion at $10M', () => {
    // Common's slope: 0, then 1 (the SAFE is paid), then 9/10 (it converts).
    expect(breakpointValues(withSafe)).toEqual([
      ['1000000', 'preference', ['common']],
      ['10000000', 'conversion', ['common']],
    ]);
    expect(waterfallBreakpoints(withSafe)[1].events[0].convertibleKey).toBe('safe-1');
  });

  it('a pre-money SAFE or note divides its cap by the capitalization without itself', () => {
    // $1M at a $9M cap on 9M shares: $1 a share, 1,000,000 shares: the same payouts.
    for (const kind of ['pre-money-safe', 'note'] as const) {
      const s = {
        ...withSafe,
        convertibles: [{ ...withSafe.convertibles![0], kind, valuationCap: '9000000' }],
      };
      expect(holders(at(s, '20000000'))).toEqual({ founder: '18000000.00', angel: '2000000.00' });
    }
  });

  it('without a cap it takes its amount only (a discount changes nothing in an exit)', () => {
    const s: WaterfallStructure = {
      ...withSafe,
      convertibles: [{ ...withSafe.convertibles![0], valuationCap: undefined, discount: '0.2' }],
    };
    const r = at(s, '100000000');
    expect(r.convertibles.map((c) => [c.converted, c.conversionPrice, money(c.proceeds)])).toEqual([
      [false, null, '1000000.00'],
    ]);
  });

  it('cash-out amounts are pari passu with the most senior preferred', () => {
    // Series A at seniority 1 (preference $1M) and the $1M SAFE share a $1M exit equally.
    const s: WaterfallStructure = {
      classes: [...withSafe.classes, { key: 'a', kind: 'preferred', originalIssuePrice: '1' }],
      holdings: [...withSafe.holdings, { holderKey: 'fund', classKey: 'a', shares: '1000000' }],
      convertibles: withSafe.convertibles,
    };
    expect(holders(at(s, '1000000'))).toEqual({
      founder: '0.00',
      fund: '500000.00',
      angel: '500000.00',
    });
  });
});

/*
 * A note, being debt, ranks above every preferred class unless told otherwise. Its amount is
 * principal + interest ($500k + $50k): with a $5.5M cap on 9,000,000 common + 1,000,000 Series A
 * shares (10M), it converts into 550,000 × 10M / 5.5M = 1,000,000 shares at $0.55.
 */
describe('waterfall: notes', () => {
  const withNote: WaterfallStructure = {
    classes: [
      { key: 'common', kind: 'common' },
      { key: 'a', kind: 'preferred', seniority: 1, originalIssuePrice: '1' },
    ],
    holdings: [
      { holderKey: 'founder', classKey: 'common', shares: '9000000' },
      { holderKey: 'fund', classKey: 'a', shares: '1000000' },
    ],
    convertibles: [
      {
        key: 'note-1',
        holderKey: 'lender',
        kind: 'note',
        amount: '550000',
        valuationCap: '5500000',
      },
    ],
  };

  it('$1M: the note is paid its $550k first, Series A the remaining $450k', () => {
    expect(holders(at(withNote, '1000000'))).toEqual({
      founder: '0.00',
      fund: '450000.00',
      lender: '550000.00',
    });
  });

  it('with seniority 1 it is pari passu with Series A: 550 : 1,000 of $1M', () => {
    const parity: WaterfallStructure = {
      ...withNote,
      convertibles: [{ ...withNote.convertibles![0], seniority: 1 }],
    };
    expect(holders(at(parity, '1000000'))).toEqual({
      founder: '0.00',
      fund: '645161.29',
      lender: '354838.71',
    });
  });

  it('$22M: all convert, 1,000,000 of 11,000,000 shares each for A and the note ($2 a share)', () => {
    // A converts at p > $1, the note at p > $0.55: above $1.55M + 9M × $1 + ... both convert
    // well below $22M, where p = 22M / 11M = $2.
    const r = at(withNote, '22000000');
    expect(r.commonSharePrice.toFixed()).toBe('2');
    expect(
      r.convertibles.map((c) => [c.converted, c.conversionPrice?.toFixed(), money(c.proceeds)]),
    ).toEqual([[true, '0.55', '2000000.00']]);
    expect(holders(r)).toEqual({
      founder: '18000000.00',
      fund: '2000000.00',
      lender: '2000000.00',
    });
  });

  it('breakpoints: note paid $550k, A paid $1.55M, note converts at p = $0.55, A at p = $1', () => {
    // $1.55M + 9M × $0.55 = $6.5M; then 10M shares: $6.5M + 10M × $0.45 = $11M.
    expect(breakpointValues(withNote)).toEqual([
      ['550000', 'preference', ['a']],
      ['1550000', 'preference', ['common', 'a']],
      ['6500000', 'conversion', ['common']],
      ['11000000', 'conversion', ['common', 'a']],
    ]);
  });
});

describe('waterfall: inputs', () => {
  it('numbers and Decimals are read as their decimal text, fractional shares too', () => {
    const asNumbers: WaterfallStructure = {
      classes: singlePreferred.classes,
      holdings: [
        { holderKey: 'founder', classKey: 'common', shares: 3999999.5 },
        { holderKey: 'founder', classKey: 'common', shares: new D('0.50') },
        { holderKey: 'fund', classKey: 'a', shares: new Decimal(1000000) },
      ],
    };
    expect(holders(at(asNumbers, '10000000'))).toEqual(holders(at(singlePreferred, '10000000')));
  });

  it('an exercise price of 2 and 2.00 is one price; options of zero shares are not in the event', () => {
    const s: WaterfallStructure = {
      ...withOptions,
      options: [
        { key: 'o1', holderKey: 'e1', shares: '10', exercisePrice: '2' },
        { key: 'o2', holderKey: 'e2', shares: 20, exercisePrice: 2 },
        { key: 'o3', holderKey: 'e2', shares: '0', exercisePrice: '2.000' },
      ],
    };
    expect(waterfallBreakpoints(s).map((b) => b.events.map((e) => e.optionKeys))).toEqual([
      [['o1', 'o2']],
    ]);
  });
});

describe('waterfall: rounding to cents', () => {
  const thirds: WaterfallStructure = {
    classes: [{ key: 'common', kind: 'common' }],
    holdings: ['x', 'y', 'z'].map((holderKey) => ({ holderKey, classKey: 'common', shares: '1' })),
  };

  it('largest remainder: $100 in thirds is 33.34 + 33.33 + 33.33, percents sum to 100', () => {
    const r = at(thirds, '100');
    expect(holders(r)).toEqual({ x: '33.34', y: '33.33', z: '33.33' });
    expect(r.byHolder.map((h) => h.percentOfProceeds.toFixed())).toEqual([
      '33.34',
      '33.33',
      '33.33',
    ]);
  });

  it('a distributable amount below a cent is rounded half up', () => {
    expect(at(thirds, '0.015').distributable.toFixed()).toBe('0.02');
  });

  it('zero exit: every figure is zero', () => {
    const r = at(stacked, '0');
    expect(r.byClass.every((c) => c.proceeds.isZero() && !c.converted)).toBe(true);
    expect(r.byHolder.every((h) => h.proceeds.isZero())).toBe(true);
  });
});

describe('waterfallBreakpoints: only where a slope changes', () => {
  it('a preferred class alone on the cap table takes everything: no breakpoint at all', () => {
    expect(
      waterfallBreakpoints({
        classes: [{ key: 'a', kind: 'preferred', originalIssuePrice: '1' }],
        holdings: [{ holderKey: 'fund', classKey: 'a', shares: '100' }],
      }),
    ).toEqual([]);
  });
});

describe('waterfall: validation', () => {
  const bad = (patch: Partial<WaterfallInput>, message: RegExp) => {
    // Replaced classes come without the holdings of the original ones.
    const holdings = patch.classes ? [] : singlePreferred.holdings;
    const input = { ...singlePreferred, holdings, exitValue: '1000', ...patch } as WaterfallInput;
    expect(() => waterfall(input)).toThrow(CapMathError);
    expect(() => waterfall(input)).toThrow(message);
  };

  it('names the offending field', () => {
    bad({ exitValue: '-1' }, /exitValue must not be negative/);
    bad({ transactionExpenses: '1e3' }, /Not a plain decimal/);
    bad(
      { holdings: [{ holderKey: 'x', classKey: 'nope', shares: '1' }] },
      /holdings\[0\]\.classKey: unknown class "nope"/,
    );
    bad(
      { holdings: [{ holderKey: 'x', classKey: 'a', shares: '-5' }] },
      /holdings\[0\]\.shares must not be negative/,
    );
    bad(
      { classes: [{ key: 'a', kind: 'preferred' }] },
      /originalIssuePrice of class "a" is required/,
    );
    bad(
      {
        classes: [
          {
            key: 'a',
            kind: 'preferred',
            originalIssuePrice: '1',
            liquidationPreferenceMultiple: '2',
            participating: true,
            participationCapMultiple: '1.5',
          },
        ],
      },
      /participationCapMultiple of class "a" \(1.5\) must be at least/,
    );
    bad(
      { classes: [{ key: 'a', kind: 'preferred', originalIssuePrice: '1', conversionRatio: '0' }] },
      /conversionRatio of class "a" must be greater than zero/,
    );
    bad(
      { classes: [{ key: 'a', kind: 'preferred', originalIssuePrice: '1', seniority: 1.5 }] },
      /seniority of class "a" must be a whole number/,
    );
    bad(
      {
        classes: [
          { key: 'a', kind: 'common' },
          { key: 'a', kind: 'common' },
        ],
      },
      /classes: duplicate key "a"/,
    );
    bad(
      { options: [{ key: 'o', holderKey: 'e', shares: '1', exercisePrice: '-1' }] },
      /exercisePrice of option "o" must not be negative/,
    );
    bad(
      {
        convertibles: [{ key: 's', holderKey: 'h', kind: 'safe' as never, amount: '1' }],
      },
      /kind of convertible "s" must be one of/,
    );
    bad(
      {
        convertibles: [
          {
            key: 's',
            holderKey: 'h',
            kind: 'note',
            amount: '1',
            valuationCap: '1',
            discount: '20',
          },
        ],
      },
      /discount of convertible "s" must be between 0 and 1/,
    );
    bad(
      {
        convertibles: [
          { key: 's', holderKey: 'h', kind: 'post-money-safe', amount: '5', valuationCap: '5' },
        ],
      },
      /100% or more/,
    );
    bad(
      { convertibles: [{ key: 's', holderKey: 'h', kind: 'note', amount: '1', seniority: 0.5 }] },
      /seniority of convertible "s" must be a whole number/,
    );
    bad({ exitValue: '12,5' }, /exitValue: Not a plain decimal number/);
    bad(
      { holdings: [{ holderKey: 'x', classKey: 'a', shares: 'many' }] },
      /holdings\[0\]\.shares: Not a plain decimal number/,
    );
    bad(
      { holdings: [{ holderKey: '', classKey: 'a', shares: '1' }] },
      /holdings\[0\]\.holderKey must be a non-empty string/,
    );
  });

  it('refuses an exit beyond what anyone can take', () => {
    const onlyCashOut: WaterfallInput = {
      exitValue: '2000000',
      classes: [],
      holdings: [],
      convertibles: [{ key: 's', holderKey: 'h', kind: 'note', amount: '1000000' }],
    };
    expect(() => waterfall(onlyCashOut)).toThrow(/Nothing on the cap table takes proceeds/);
    expect(holders(waterfall({ ...onlyCashOut, exitValue: '400000' }))).toEqual({
      h: '400000.00',
    });
  });

  it('an empty cap table with a zero exit is all zeros', () => {
    const r = waterfall({ exitValue: '0', classes: [], holdings: [] });
    expect(r.byHolder).toEqual([]);
    expect(r.distributable.toFixed()).toBe('0');
  });
});
