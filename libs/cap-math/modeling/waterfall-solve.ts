import Decimal from 'decimal.js';
import { D } from '../decimal';
import { CapMathError } from '../errors';
import { Instrument, WaterfallModel } from './waterfall-model';

const ZERO = new D(0);
/**
 * Segment totals are sums of 60-digit products: a total that is mathematically the
 * distributable amount may differ from it in the last digits. Within this distance (far below
 * a cent, far above that noise) it is taken as reached.
 */
const TOLERANCE = new D('1e-30');

/** Exact (unrounded) payouts of every instrument for a distributable amount. */
export interface ExactPayouts {
  /** The value of a common share; 0 while preferences are not all paid. */
  price: Decimal;
  /** Per instrument, in `model.instruments` order. */
  payouts: Decimal[];
  /** The part of each payout that is preference (or cash-out amount). */
  preferences: Decimal[];
  /** Per instrument: converted (classes, convertibles) or exercised (options). */
  converted: boolean[];
}

/**
 * Up to the sum of all preferences (p = 0): preferences by seniority, most senior first;
 * within a seniority pro rata to the preference amounts when the money runs out. Beyond it
 * every preference is paid (a class or convertible that converts gives its preference up)
 * and p solves total(p) = distributable on the linear piece that contains it:
 * p = p_k + (distributable − total(p_k)) / slope_k. Where total(p) is flat (nothing but capped
 * participation between two values of p) the smallest p is taken; every payout is flat there
 * too, so the payouts do not depend on that choice.
 */
export function solveWaterfall(model: WaterfallModel, distributable: Decimal): ExactPayouts {
  const count = model.instruments.length;
  if (distributable.lessThanOrEqualTo(model.totalPreference)) {
    const payouts: Decimal[] = new Array(count).fill(ZERO);
    let left = distributable;
    for (const tier of model.tiers) {
      if (left.isZero()) break;
      if (left.greaterThanOrEqualTo(tier.total)) {
        for (const m of tier.members) payouts[m] = model.instruments[m].preference;
        left = left.minus(tier.total);
      } else {
        for (const m of tier.members) {
          payouts[m] = model.instruments[m].preference.times(left).div(tier.total);
        }
        left = ZERO;
      }
    }
    return {
      price: ZERO,
      payouts,
      preferences: payouts.slice(),
      converted: new Array(count).fill(false),
    };
  }
  const price = commonSharePrice(model, distributable);
  const payouts: Decimal[] = [];
  const preferences: Decimal[] = [];
  const converted: boolean[] = [];
  for (const instrument of model.instruments) {
    const payout = payoutAt(instrument, price);
    payouts.push(payout.total);
    preferences.push(payout.preference);
    converted.push(payout.converted);
  }
  return { price, payouts, preferences, converted };
}

/** p with total(p) = distributable, for a distributable above the sum of the preferences. */
function commonSharePrice(model: WaterfallModel, distributable: Decimal): Decimal {
  const { segments } = model;
  // The last piece starting below the distributable amount holds the solution.
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (segments[mid].total.lessThan(distributable)) lo = mid;
    else hi = mid - 1;
  }
  const segment = segments[lo];
  const next = segments[lo + 1];
  if (next && next.total.minus(distributable).abs().lessThanOrEqualTo(TOLERANCE)) {
    return next.p;
  }
  if (segment.slope.isZero()) {
    if (distributable.minus(segment.total).lessThanOrEqualTo(TOLERANCE)) return segment.p;
    throw new CapMathError(
      'Nothing on the cap table takes proceeds beyond the preferences and cash-out amounts ' +
        '(no common shares, participating or convertible preferred, capped convertibles or options)',
      'exitValue',
    );
  }
  return segment.p.plus(distributable.minus(segment.total).div(segment.slope));
}

/** One instrument's payoff at a common share value p > 0, with its preference part. */
export function payoutAt(
  instrument: Instrument,
  p: Decimal,
): { total: Decimal; preference: Decimal; converted: boolean } {
  const { weight, preference } = instrument;
  switch (instrument.kind) {
    case 'common':
      return { total: weight.times(p), preference: ZERO, converted: false };
    case 'options':
      return p.greaterThan(instrument.strike)
        ? { total: weight.times(p.minus(instrument.strike)), preference: ZERO, converted: true }
        : { total: ZERO, preference: ZERO, converted: false };
    case 'fixed-or-convert':
      // An instrument with no conversion shares has nothing to convert into.
      return instrument.convertAbove && !weight.isZero() && p.greaterThan(instrument.convertAbove)
        ? { total: weight.times(p), preference: ZERO, converted: true }
        : { total: preference, preference, converted: false };
    case 'participating': {
      if (instrument.convertAbove && p.greaterThan(instrument.convertAbove)) {
        return { total: weight.times(p), preference: ZERO, converted: true };
      }
      const participation =
        instrument.capAt && instrument.headroom && p.greaterThanOrEqualTo(instrument.capAt)
          ? instrument.headroom
          : weight.times(p);
      return { total: preference.plus(participation), preference, converted: false };
    }
  }
}
