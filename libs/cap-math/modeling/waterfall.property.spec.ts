import Decimal from 'decimal.js';
import fc from 'fast-check';
import { D } from '../decimal';
import { largestRemainder } from '../largest-remainder';
import { waterfall, waterfallBreakpoints } from './waterfall';
import { apportionUnits } from './waterfall-cents';
import { buildWaterfallModel, WaterfallModel } from './waterfall-model';
import { solveWaterfall } from './waterfall-solve';
import { WaterfallClass, WaterfallResult, WaterfallStructure } from './waterfall-types';

/*
 * A failing property shrinks its counterexample, run after run, on tables of a dozen rows: that
 * search can take minutes. It stops after 15 s (each property passes in 1–2 s on the 2-core
 * development machine) and then reports the smallest failure found so far; a property
 * interrupted before its numRuns fails too, so a slower machine cannot pass with fewer runs.
 */
fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  interruptAfterTimeLimit: 15_000,
  markInterruptAsFailure: true,
});

const ZERO = new D(0);
const CENT = new D('0.01');
const cents = (min: number, max: number) =>
  fc.integer({ min, max }).map((c) => new D(c).div(100).toFixed());

const preferredClass = fc.record({
  seniority: fc.integer({ min: 0, max: 3 }),
  originalIssuePrice: cents(10, 1000),
  liquidationPreferenceMultiple: fc.constantFrom('0', '1', '1', '1', '1.5', '2'),
  participating: fc.boolean(),
  cap: fc.option(fc.constantFrom('1', '2', '3', '4.5'), { nil: undefined }),
  conversionRatio: fc.constantFrom('1', '1', '2', '0.5', '1.25'),
});

interface TableSizes {
  preferred: number;
  holdings: number;
  options: number;
  convertibles: number;
  capped: boolean;
}

/**
 * A random cap table: a common class (someone always holds common), up to `preferred`
 * preferred classes, holders h0…h7 with holdings, options (h0…h7 again, so holders mix
 * securities) and SAFEs and notes. Exit values up to $200M meet every regime: inside the
 * preference stack (preferences up to $20M a class), conversions, options in the money.
 */
const capTable = (sizes: TableSizes) =>
  fc
    .record({
      preferred: fc.array(preferredClass, { maxLength: sizes.preferred }),
      holdings: fc.array(
        fc.record({
          holder: fc.integer({ min: 0, max: 5 }),
          classIndex: fc.nat(),
          shares: fc.oneof(
            fc.integer({ min: 0, max: 1_000_000 }).map(String),
            cents(0, 100_000_00), // fractional shares (LLC units)
          ),
        }),
        { maxLength: sizes.holdings },
      ),
      founderShares: fc.integer({ min: 1, max: 5_000_000 }),
      options: fc.array(
        fc.record({
          holder: fc.integer({ min: 0, max: 7 }),
          shares: fc.integer({ min: 0, max: 200_000 }),
          exercisePrice: cents(0, 1000),
        }),
        { maxLength: sizes.options },
      ),
      convertibles: fc.array(
        fc.record({
          holder: fc.integer({ min: 0, max: 7 }),
          kind: fc.constantFrom(
            'post-money-safe' as const,
            'pre-money-safe' as const,
            'note' as const,
          ),
          amount: cents(1_000_000, 100_000_000),
          valuationCap: fc.option(cents(500_000_000, 5_000_000_000), { nil: undefined }),
          seniority: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        }),
        { maxLength: sizes.convertibles },
      ),
      expenses: fc.option(cents(0, 50_000_000), { nil: undefined }),
    })
    .map((t): WaterfallStructure => {
      const classes: WaterfallClass[] = [
        { key: 'common', kind: 'common' },
        ...t.preferred.map((p, i): WaterfallClass => {
          const multiple = new D(p.liquidationPreferenceMultiple);
          const cap = sizes.capped && p.participating && p.cap ? D.max(p.cap, multiple) : undefined;
          return {
            key: `p${i}`,
            kind: 'preferred',
            seniority: p.seniority,
            originalIssuePrice: p.originalIssuePrice,
            liquidationPreferenceMultiple: p.liquidationPreferenceMultiple,
            participating: p.participating,
            participationCapMultiple: cap?.toFixed(),
            conversionRatio: p.conversionRatio,
          };
        }),
      ];
      return {
        transactionExpenses: t.expenses,
        classes,
        holdings: [
          { holderKey: 'h0', classKey: 'common', shares: String(t.founderShares) },
          ...t.holdings.map((h) => ({
            holderKey: `h${h.holder}`,
            classKey: classes[h.classIndex % classes.length].key,
            shares: h.shares,
          })),
        ],
        options: t.options.map((o, i) => ({
          key: `o${i}`,
          holderKey: `h${o.holder}`,
          shares: String(o.shares),
          exercisePrice: o.exercisePrice,
        })),
        convertibles: t.convertibles.map((c, i) => ({
          key: `s${i}`,
          holderKey: `h${c.holder}`,
          kind: c.kind,
          amount: c.amount,
          valuationCap: c.valuationCap,
          seniority: c.seniority,
        })),
      };
    });

const anyTable = capTable({
  preferred: 4,
  holdings: 10,
  options: 5,
  convertibles: 3,
  capped: true,
});
/** Exit values in cents: up to $10M (the preference stack) or up to $200M. */
const exitValue = fc.oneof(cents(0, 1_000_000_000), cents(0, 20_000_000_000));

const total = (values: Decimal[]) => values.reduce((acc, v) => acc.plus(v), ZERO);
const distributableOf = (model: WaterfallModel, exit: Decimal.Value) =>
  D.max(new D(exit).minus(model.expenses), 0);

/** Exact payouts of every instrument (model order) for an exact, unrounded exit value. */
const exactPayouts = (structure: WaterfallStructure, exit: Decimal.Value) => {
  const model = buildWaterfallModel(structure);
  return solveWaterfall(model, distributableOf(model, exit)).payouts;
};

/**
 * What `waterfall` rounds: per holder, the exact proceeds (of the distributable amount in
 * cents) and the documented rounding bound in cents (1 + shares / class shares per holding,
 * 1 per option and convertible).
 */
function exactByHolder(structure: WaterfallStructure, result: WaterfallResult) {
  const model = buildWaterfallModel(structure);
  const solved = solveWaterfall(model, result.distributable);
  const exact = model.holderKeys.map(() => ZERO);
  const bound = model.holderKeys.map(() => ZERO);
  for (const h of model.holdings) {
    const c = model.classes[h.classIndex];
    const share = c.units === 0n ? ZERO : new D(h.units.toString()).div(c.units.toString());
    exact[h.holderIndex] = exact[h.holderIndex].plus(solved.payouts[c.instrument].times(share));
    bound[h.holderIndex] = bound[h.holderIndex].plus(share.plus(1));
  }
  for (const o of model.options) {
    const instrument = model.instruments[o.instrument];
    const perShare = solved.converted[o.instrument] ? solved.price.minus(instrument.strike) : ZERO;
    const shares = new D(o.units.toString()).div(new D(10).pow(model.optionScale));
    exact[o.holderIndex] = exact[o.holderIndex].plus(perShare.times(shares));
    bound[o.holderIndex] = bound[o.holderIndex].plus(1);
  }
  for (const c of model.convertibles) {
    exact[c.holderIndex] = exact[c.holderIndex].plus(solved.payouts[c.instrument]);
    bound[c.holderIndex] = bound[c.holderIndex].plus(1);
  }
  return { model, solved, exact, bound: bound.map((b) => b.times(CENT)) };
}

describe('waterfall properties', () => {
  it('proceeds add up to the distributable amount exactly, to the cent, in every view', () => {
    fc.assert(
      fc.property(anyTable, exitValue, (table, exit) => {
        const r = waterfall({ ...table, exitValue: exit });
        const expected = D.max(new D(exit).minus(table.transactionExpenses ?? 0), 0);
        expect(r.distributable.toFixed(2)).toBe(expected.toFixed(2));
        expect(total(r.byHolder.map((h) => h.proceeds)).toFixed(2)).toBe(
          r.distributable.toFixed(2),
        );
        const bySecurity = [
          ...r.byClass.map((c) => c.proceeds),
          ...r.options.map((o) => o.proceeds),
          ...r.convertibles.map((c) => c.proceeds),
        ];
        expect(total(bySecurity).toFixed(2)).toBe(r.distributable.toFixed(2));
        for (const c of r.byClass) {
          expect(c.preference.plus(c.participation).equals(c.proceeds)).toBe(true);
          expect(c.preference.isNegative() || c.participation.isNegative()).toBe(false);
        }
        for (const amount of [...bySecurity, ...r.byHolder.map((h) => h.proceeds)]) {
          expect(amount.decimalPlaces()).toBeLessThanOrEqual(2);
          expect(amount.isNegative()).toBe(false);
        }
        // Percentages: exactly 100 (0 when nothing is distributed), 4 places.
        const percents = r.byHolder.map((h) => h.percentOfProceeds);
        expect(total(percents).toFixed()).toBe(r.distributable.isZero() ? '0' : '100');
        for (const p of percents) expect(p.decimalPlaces()).toBeLessThanOrEqual(4);
      }),
      { numRuns: 150 },
    );
  });

  it('each payout is within its documented rounding bound of its exact amount', () => {
    fc.assert(
      fc.property(anyTable, exitValue, (table, exit) => {
        const r = waterfall({ ...table, exitValue: exit });
        const { model, solved, exact, bound } = exactByHolder(table, r);
        // Classes, options (per grant: exact n × (p − K)) and convertibles: under a cent.
        model.classes.forEach((c, i) => {
          const error = r.byClass[i].proceeds.minus(solved.payouts[c.instrument]).abs();
          expect(error.lessThanOrEqualTo(CENT)).toBe(true);
        });
        model.convertibles.forEach((c, i) => {
          const error = r.convertibles[i].proceeds.minus(solved.payouts[c.instrument]).abs();
          expect(error.lessThanOrEqualTo(CENT)).toBe(true);
        });
        // Holders: the sum of their rows' bounds.
        r.byHolder.forEach((h, i) => {
          expect(h.proceeds.minus(exact[i]).abs().lessThanOrEqualTo(bound[i])).toBe(true);
          if (!r.distributable.isZero()) {
            const percent = h.proceeds.times(100).div(r.distributable);
            expect(h.percentOfProceeds.minus(percent).abs().lessThan('0.0001')).toBe(true);
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('nobody gets less when the exit value rises: exactly, and after rounding within its bound', () => {
    // Far apart, or a few cents apart (where largest-remainder rounding can take a cent back).
    const pair = fc.oneof(
      fc.tuple(exitValue, exitValue),
      fc
        .tuple(exitValue, fc.integer({ min: 1, max: 5 }))
        .map(([e, c]) => [e, new D(e).plus(new D(c).div(100)).toFixed()]),
    );
    fc.assert(
      fc.property(anyTable, pair, (table, [e1, e2]) => {
        const [low, high] = new D(e1).lessThan(e2) ? [e1, e2] : [e2, e1];
        // Every instrument's exact payout (classes, options by exercise price, convertibles).
        const before = exactPayouts(table, low);
        const after = exactPayouts(table, high);
        before.forEach((b, i) => expect(after[i].minus(b).greaterThan('-1e-30')).toBe(true));
        // Every holder's exact proceeds, and its cents: they can fall by less than twice the
        // holder's rounding bound (the largest-remainder method's Alabama paradox), no more.
        const r1 = waterfall({ ...table, exitValue: low });
        const r2 = waterfall({ ...table, exitValue: high });
        const x1 = exactByHolder(table, r1);
        const x2 = exactByHolder(table, r2);
        r1.byHolder.forEach((h, i) => {
          expect(x2.exact[i].minus(x1.exact[i]).greaterThan('-1e-30')).toBe(true);
          const drop = h.proceeds.minus(r2.byHolder[i].proceeds);
          expect(drop.lessThan(x1.bound[i].times(2))).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('a zero exit pays nobody anything', () => {
    fc.assert(
      fc.property(anyTable, (table) => {
        const r = waterfall({ ...table, exitValue: '0' });
        expect(r.distributable.isZero()).toBe(true);
        for (const rows of [r.byClass, r.byHolder, r.options, r.convertibles]) {
          for (const row of rows) expect(row.proceeds.isZero()).toBe(true);
        }
        expect(r.byHolder.every((h) => h.percentOfProceeds.isZero())).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('a junior preference is paid nothing until every senior one is paid in full', () => {
    fc.assert(
      fc.property(anyTable, exitValue, (table, exit) => {
        const model = buildWaterfallModel(table);
        const { payouts } = solveWaterfall(model, distributableOf(model, exit));
        model.tiers.forEach((tier, t) => {
          const paid = total(tier.members.map((m) => payouts[m]));
          if (paid.isZero()) return;
          for (const senior of model.tiers.slice(0, t)) {
            for (const m of senior.members) {
              expect(payouts[m].greaterThanOrEqualTo(model.instruments[m].preference)).toBe(true);
            }
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('decisions are stable and unique: checked against every combination of decisions', () => {
    // Every preferred class (but uncapped participating, which never gains by converting)
    // converts or not, every option is exercised or not, every capped convertible converts or
    // not: each combination is paid by a direct waterfall. The stable ones are those where no
    // one gains by changing its own decision alone; ours must be one, and all of them must pay
    // what ours pays.
    const table = capTable({
      preferred: 3,
      holdings: 6,
      options: 2,
      convertibles: 2,
      capped: true,
    });
    fc.assert(
      fc.property(table, exitValue, (t, exit) => {
        const model = buildWaterfallModel(t);
        const net = distributableOf(model, exit);
        const ours = solveWaterfall(model, net).payouts;
        const deciders = model.instruments
          .map((instrument, i) => ({ instrument, i }))
          .filter(
            ({ instrument }) =>
              !instrument.weight.isZero() &&
              (instrument.convertAbove !== null || instrument.kind === 'options'),
          )
          .map(({ i }) => i);
        const outcomes = new Map<number, Decimal[] | null>();
        const direct = (mask: number) => {
          if (!outcomes.has(mask)) outcomes.set(mask, directWaterfall(model, net, deciders, mask));
          return outcomes.get(mask)!;
        };
        const stable: Decimal[][] = [];
        for (let mask = 0; mask < 1 << deciders.length; mask++) {
          const payout = direct(mask);
          if (!payout) continue;
          const isStable = deciders.every((instrument, bit) => {
            const other = direct(mask ^ (1 << bit));
            return !other || other[instrument].lessThanOrEqualTo(payout[instrument].plus('1e-20'));
          });
          if (isStable) stable.push(payout);
        }
        expect(stable.length).toBeGreaterThan(0);
        for (const payout of stable) {
          payout.forEach((p, i) => expect(p.minus(ours[i]).abs().lessThan('1e-18')).toBe(true));
        }
      }),
      { numRuns: 120 },
    );
  });

  it('breakpoints: sorted, distinct, a slope changes at each (of exactly the classes named), linear between', () => {
    fc.assert(
      fc.property(anyTable, (table) => {
        const model = buildWaterfallModel(table);
        const breakpoints = waterfallBreakpoints(table);
        const values = breakpoints.map((b) => b.exitValue);
        values.forEach((v, j) => {
          if (j > 0) expect(v.greaterThan(values[j - 1])).toBe(true);
          expect(breakpoints[j].events.length).toBeGreaterThan(0);
        });
        const bounds = [ZERO, ...values, (values[values.length - 1] ?? ZERO).times(2).plus(1e6)];
        // Linear between consecutive breakpoints: three interior points in a straight line.
        for (let j = 0; j + 1 < bounds.length; j++) {
          const [a, b] = [bounds[j], bounds[j + 1]];
          const q = [1, 2, 3].map((k) => exactPayouts(table, a.plus(b.minus(a).times(k).div(4))));
          q[0].forEach((_, i) => {
            const first = q[1][i].minus(q[0][i]);
            const second = q[2][i].minus(q[1][i]);
            expect(first.minus(second).abs().lessThan('1e-20')).toBe(true);
          });
        }
        // At each: compare the slopes just below and just above.
        values.forEach((v, j) => {
          const h = D.min(v.minus(bounds[j]), bounds[j + 2].minus(v)).div(2);
          const below = exactPayouts(table, v.minus(h));
          const mid = exactPayouts(table, v);
          const above = exactPayouts(table, v.plus(h));
          const bends = mid.map((m, i) =>
            m.minus(below[i]).minus(above[i].minus(m)).div(h).abs().greaterThan('1e-15'),
          );
          expect(bends.some(Boolean)).toBe(true);
          const bendingClasses = model.classes.filter((c) => bends[c.instrument]).map((c) => c.key);
          expect(breakpoints[j].classKeys).toEqual(bendingClasses);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('apportionUnits is the largest-remainder method of largestRemainder, on integers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 12 }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (weights, T) => {
          fc.pre(weights.some((w) => w > 0n));
          const ours = apportionUnits(T, weights).map(String);
          const reference = largestRemainder(
            new D(T.toString()),
            weights.map((w) => new D(w.toString())),
            0,
          ).map((d) => d.toFixed());
          expect(ours).toEqual(reference);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/**
 * A plain waterfall with the decisions given (bit b of `mask`: instrument deciders[b] converts
 * or is exercised), computed directly from the model's terms: the exercised options' exercise
 * prices join the distributable amount; the preferences and cash-out amounts of those that do
 * not convert are paid by seniority (pari passu within one, pro rata to the amounts); the rest
 * is shared per common-equivalent share by common, converted, participating (capped
 * participation filled up to the cap, the excess shared by the others), exercised options and
 * converted convertibles. Exact payouts per instrument, net of exercise prices; null when money
 * is left with no one to take it (not a possible outcome).
 */
function directWaterfall(
  model: WaterfallModel,
  distributable: Decimal,
  deciders: number[],
  mask: number,
): Decimal[] | null {
  const { instruments } = model;
  const decided = new Set(deciders.filter((_, bit) => mask & (1 << bit)));
  const converts = (i: number) => decided.has(i);
  let pool = distributable;
  instruments.forEach((x, i) => {
    if (x.kind === 'options' && converts(i)) pool = pool.plus(x.weight.times(x.strike));
  });
  const payouts = instruments.map(() => ZERO);
  for (const tier of model.tiers) {
    const members = tier.members.filter((m) => !converts(m));
    const owed = total(members.map((m) => instruments[m].preference));
    if (owed.isZero()) continue;
    const paid = D.min(pool, owed);
    for (const m of members) payouts[m] = instruments[m].preference.times(paid).div(owed);
    pool = pool.minus(paid);
  }
  // Participants: weight, and for capped participation the most it may take.
  const sharing = instruments
    .map((x, i) => {
      const takes =
        x.kind === 'common' ||
        (x.kind === 'participating' && !converts(i)) ||
        ((x.kind === 'fixed-or-convert' || x.kind === 'participating' || x.kind === 'options') &&
          converts(i));
      const cap = x.kind === 'participating' && !converts(i) ? x.headroom : null;
      return { i, weight: x.weight, cap, takes };
    })
    .filter((s) => s.takes && !s.weight.isZero());
  // Water-filling: whoever the current price would take past its cap gets the cap.
  const capped = new Set<number>();
  let price = ZERO;
  for (;;) {
    const rest = sharing.filter((s) => !capped.has(s.i));
    const left = pool.minus(total(sharing.filter((s) => capped.has(s.i)).map((s) => s.cap!)));
    const weight = total(rest.map((s) => s.weight));
    if (weight.isZero()) {
      if (left.greaterThan('1e-30')) return null;
      break;
    }
    price = left.div(weight);
    const over = rest.filter((s) => s.cap && s.weight.times(price).greaterThan(s.cap));
    if (over.length === 0) break;
    for (const s of over) capped.add(s.i);
  }
  for (const s of sharing) {
    const share = capped.has(s.i) ? s.cap! : s.weight.times(price);
    payouts[s.i] = payouts[s.i].plus(share);
  }
  instruments.forEach((x, i) => {
    if (x.kind === 'options' && converts(i))
      payouts[i] = payouts[i].minus(x.weight.times(x.strike));
  });
  return payouts;
}
