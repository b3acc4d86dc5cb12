import Decimal from 'decimal.js';
import { D } from '../decimal';
import { WaterfallModel } from './waterfall-model';
import { WaterfallBreakpoint, WaterfallBreakpointEvent } from './waterfall-types';

const ZERO = new D(0);
/** Beyond 40 places is only the noise of 60-digit arithmetic on repeating decimals. */
const EXIT_VALUE_DECIMALS = 40;

/**
 * A piece of the exit-value axis on which every payout is linear, below the point where all
 * preferences are paid: instrument i's share of each extra dollar is weights(i) / total (all
 * zero when total is zero: below the expenses). Beyond that point the pieces are the segments
 * in p, with instrument i's share slope_i / Σ slopes.
 */
interface SparsePiece {
  weights: Map<number, Decimal>;
  total: Decimal;
}

/** Whether a / A and b / B differ, a zero total meaning "every share is zero". */
function sharesDiffer(a: Decimal, A: Decimal, b: Decimal, B: Decimal): boolean {
  if (A.isZero()) return !(B.isZero() || b.isZero());
  if (B.isZero()) return !a.isZero();
  return !a.times(B).equals(b.times(A));
}

/**
 * The exit values at which the slope of some payout (a class, an option or a convertible)
 * changes, in increasing exit value, one entry per exit value. Candidates are the transaction
 * expenses, the exit value at which each seniority's preferences are paid in full, and
 * exitValue = expenses + total(p) at each p where a payoff bends (a conversion threshold, a
 * participation cap, an exercise price, a convertible's liquidity price). A candidate is kept
 * only when the slopes on its two sides differ (a class alone on the cap table converting
 * changes nobody's slope). Kinks of p where total(p) is flat take no exit value of their own:
 * their events join the next candidate.
 */
export function breakpointsOf(model: WaterfallModel): WaterfallBreakpoint[] {
  const found: WaterfallBreakpoint[] = [];
  const keep = (
    exitValue: Decimal,
    events: WaterfallBreakpointEvent[],
    changed: (instrument: number) => boolean,
  ) => {
    found.push({
      exitValue: exitValue.toDecimalPlaces(EXIT_VALUE_DECIMALS, Decimal.ROUND_HALF_UP),
      classKeys: model.classes.filter((c) => changed(c.instrument)).map((c) => c.key),
      events,
    });
  };
  const X = model.expenses;
  const count = model.instruments.length;

  // Below the point where every preference is paid: nothing moves below the expenses, then
  // one piece per seniority.
  let left: SparsePiece | null = null;
  let pending: { exitValue: Decimal; events: WaterfallBreakpointEvent[] } | null = null;
  if (X.greaterThan(0)) {
    left = { weights: new Map(), total: ZERO };
    pending = {
      exitValue: X,
      events: [{ kind: 'expenses', description: `Transaction expenses of ${X.toFixed()} covered` }],
    };
  }
  let paid = ZERO;
  for (const tier of model.tiers) {
    const right: SparsePiece = {
      weights: new Map(tier.members.map((m) => [m, model.instruments[m].preference])),
      total: tier.total,
    };
    if (pending && left) {
      const l = left;
      const changed = (i: number) =>
        sharesDiffer(l.weights.get(i) ?? ZERO, l.total, right.weights.get(i) ?? ZERO, right.total);
      if ([...l.weights.keys(), ...right.weights.keys()].some(changed)) {
        keep(pending.exitValue, pending.events, changed);
      }
    }
    left = right;
    paid = paid.plus(tier.total);
    pending = { exitValue: X.plus(paid), events: tier.events };
  }

  // Beyond: slopes in p per instrument, updated kink by kink; kinks reached while the total
  // is flat (zero slope) share the exit value of the point where it starts growing again.
  const slopes = model.initialSlopes.slice();
  let slope = slopes.reduce((acc, s) => acc.plus(s), ZERO);
  const { kinks } = model;
  let k = 0;
  const flatEvents: WaterfallBreakpointEvent[] = [];
  while (slope.isZero() && k < kinks.length) {
    for (const c of kinks[k].changes) {
      slopes[c.instrument] = slopes[c.instrument].plus(c.delta);
      slope = slope.plus(c.delta);
    }
    flatEvents.push(...kinks[k].events);
    k++;
  }
  if (slope.isZero()) {
    // Nothing takes proceeds beyond the preferences: no exit value lies past this point.
    return merged(model, found);
  }
  if (pending && left) {
    const l = left;
    const changed = (i: number) =>
      sharesDiffer(l.weights.get(i) ?? ZERO, l.total, slopes[i], slope);
    let any = false;
    for (let i = 0; i < count && !any; i++) any = changed(i);
    if (any) keep(pending.exitValue, [...pending.events, ...flatEvents], changed);
  }

  let total = model.totalPreference;
  let p = k > 0 ? kinks[k - 1].p : ZERO;
  while (k < kinks.length) {
    total = total.plus(slope.times(kinks[k].p.minus(p)));
    const before = slope;
    // Slopes before this kink of the instruments it (and the flat stretch after it) changes.
    const touched = new Map<number, Decimal>();
    const events: WaterfallBreakpointEvent[] = [];
    do {
      for (const c of kinks[k].changes) {
        if (!touched.has(c.instrument)) touched.set(c.instrument, slopes[c.instrument]);
        slopes[c.instrument] = slopes[c.instrument].plus(c.delta);
        slope = slope.plus(c.delta);
      }
      events.push(...kinks[k].events);
      p = kinks[k].p;
      k++;
    } while (slope.isZero() && k < kinks.length);
    if (slope.isZero()) break;
    // An untouched instrument keeps its slope c_i in p: its share c_i / A → c_i / B changes
    // exactly when A ≠ B and c_i > 0; a touched one when a_i · B ≠ b_i · A.
    const after = slope;
    const changed = (i: number) => {
      const a = touched.get(i);
      return a === undefined
        ? !before.equals(after) && !slopes[i].isZero()
        : sharesDiffer(a, before, slopes[i], after);
    };
    let any = false;
    let untouched = before;
    for (const [i, a] of touched) {
      if (changed(i)) any = true;
      untouched = untouched.minus(a);
    }
    if (!any) any = !before.equals(after) && untouched.greaterThan(0);
    if (any) keep(X.plus(total), events, changed);
  }
  return merged(model, found);
}

/** Sorted by exit value, one entry per exit value (events in order, classes in class order). */
function merged(model: WaterfallModel, found: WaterfallBreakpoint[]): WaterfallBreakpoint[] {
  const sorted = found
    .map((b, order) => ({ b, order }))
    .sort((x, y) => x.b.exitValue.comparedTo(y.b.exitValue) || x.order - y.order)
    .map((x) => x.b);
  const result: WaterfallBreakpoint[] = [];
  for (const b of sorted) {
    const last = result[result.length - 1];
    if (last && last.exitValue.equals(b.exitValue)) {
      const keys = new Set([...last.classKeys, ...b.classKeys]);
      last.classKeys = model.classes.map((c) => c.key).filter((key) => keys.has(key));
      last.events.push(...b.events);
    } else {
      result.push({ ...b, events: [...b.events] });
    }
  }
  return result;
}
