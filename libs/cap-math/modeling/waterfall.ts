import Decimal from 'decimal.js';
import { D } from '../decimal';
import { CapMathError } from '../errors';
import { nonNegative } from '../validate';
import { breakpointsOf } from './waterfall-breakpoints';
import { apportionUnits, fromUnits, toUnits, WEIGHT_DECIMALS } from './waterfall-cents';
import { named } from './input-field';
import { buildWaterfallModel, WaterfallModel } from './waterfall-model';
import { ExactPayouts, solveWaterfall } from './waterfall-solve';
import {
  WaterfallBreakpoint,
  WaterfallClassResult,
  WaterfallConvertibleResult,
  WaterfallInput,
  WaterfallOptionResult,
  WaterfallResult,
  WaterfallStructure,
} from './waterfall-types';

export * from './waterfall-types';

const ZERO = new D(0);
/** Percentages: 4 places, as `ownershipPercentages`; 100% is 1,000,000 units. */
const PERCENT_DECIMALS = 4;
const HUNDRED_PERCENT = 100n * 10n ** BigInt(PERCENT_DECIMALS);

/**
 * Who gets what when the company is sold for `exitValue`.
 *
 * 1. Transaction expenses come off the top: distributable = max(exit value − expenses, 0).
 * 2. Liquidation preferences (multiple × original issue price × shares) by seniority, highest
 *    first; one seniority is paid pari passu, pro rata to the preference amounts when short.
 *    SAFEs take their cash-out amount (purchase amount) pari passu with the most senior
 *    preferred, notes theirs (principal + interest) one seniority above every preferred class,
 *    unless the convertible gives its own `seniority`.
 * 3. The rest is shared per common share (value p) by common shares, preferred as converted
 *    (shares × conversion ratio) when converting pays more, participating preferred (until its
 *    cap: total per share ≤ cap multiple × original issue price), options in the money and
 *    convertibles whose conversion shares are worth more than their cash-out amount.
 *
 * Conversion decisions are taken together and the result is stable (a fixed point): each class,
 * option and convertible takes the better of its alternatives at the common share value p that
 * the result itself produces, so none would gain by deciding otherwise alone. That fixed point
 * is computed directly instead of by iterating decisions: each payoff is a non-decreasing,
 * continuous function of p and the payoffs add up to the distributable amount, so p is found on
 * the linear piece of their sum that reaches it. The outcome is unique and deterministic (the
 * unit tests check it against every combination of decisions that is stable): converting a
 * non-participating class is the same as exercising an option on w common shares at strike
 * preference / w, and p after the conversion is a weighted mean of p before and that strike, so
 * converting pays more exactly when p before was above the strike; decisions cannot contradict
 * each other. A class indifferent at its threshold (p equal to it) keeps its preference.
 *
 * Options and warrants (treasury / net exercise): an in-the-money one (exercise price < p) is
 * exercised; the exercise price it pays joins the proceeds shared per common share, and its
 * holder receives the share value less the exercise price, n × (p − exercise price). The
 * exercise money paid in and netted out cancel, so the proceeds still add up to the
 * distributable amount, and p is solved exactly with the exercised options' shares counted.
 *
 * SAFEs and notes take the greater of their cash-out amount and their conversion shares × p,
 * the conversion shares being what they convert into at the cap price (liquidity price =
 * valuation cap / capitalization; see `conversionTerms`); without a cap, the amount.
 *
 * Money: the distributable amount is rounded half up to the cent; the payouts of that amount are
 * computed exactly (60 significant digits) and then rounded to cents by the largest-remainder
 * method, top down so that every view adds up:
 * - the distributable amount is split between the classes,
 *   options and convertibles in proportion to their exact payouts: each within one cent of its
 *   exact payout, summing to `distributable` exactly;
 * - each class's cents between its holdings, pro rata to their shares (within one cent of that
 *   share, so within 1 + shares / class shares cents of the holding's exact payout), and
 *   between its preference and participation in proportion to the exact amounts;
 * - a holder's proceeds are the sum of its holdings', options' and convertibles' cents, and its
 *   percentOfProceeds splits 100 by the same method over those cents, to 4 places (each within
 *   0.0001 of 100 × proceeds / distributable; the column sums to exactly 100, or is all zeros
 *   when nothing is distributable).
 * The exact payouts never fall as the exit value rises; the rounded ones can (the
 * largest-remainder method's Alabama paradox), by less than twice the rounding bounds above.
 */
export function waterfall(input: WaterfallInput): WaterfallResult {
  const exitValue = named('exitValue', (label) => nonNegative(label, input.exitValue));
  const model = buildWaterfallModel(input);
  const net = exitValue.minus(model.expenses);
  const exact = net.isNegative() ? ZERO : net;
  // The amount paid out, exactly: the payouts are solved for it (not for sub-cent digits of
  // the exit value or expenses), so their cents can add up to it.
  const distributable = exact.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const solved = solveWaterfall(model, distributable);
  return {
    exitValue,
    transactionExpenses: model.expenses,
    ...inCents(model, solved, distributable),
  };
}

/**
 * The exit values at which some payout (a class's, an option's or a convertible's) changes
 * slope, sorted, one entry per exit value, each with the classes whose payout bends there and
 * what happens: transaction expenses covered, a seniority's preferences paid in full, a
 * participation cap reached, a class or convertible converting, options coming into the money.
 * Between two consecutive breakpoints (and beyond the last) every payout is linear in the exit
 * value. Exit values are exact to 40 decimal places (not rounded to cents).
 */
export function waterfallBreakpoints(input: WaterfallStructure): WaterfallBreakpoint[] {
  return breakpointsOf(buildWaterfallModel(input));
}

/** The exact payouts in cents: every view summing to `distributable`. */
function inCents(
  model: WaterfallModel,
  solved: ExactPayouts,
  distributable: Decimal,
): Omit<WaterfallResult, 'exitValue' | 'transactionExpenses'> {
  const { payouts, preferences, converted, price } = solved;
  // Integer weights at 10^-(20 + optionScale): an option's weight is its share units times
  // (p − exercise price) at 20 places, one subtraction per exercise price, not per grant.
  const scale = WEIGHT_DECIMALS + model.optionScale;
  const netPerShare = new Map<number, bigint>();
  const optionWeight = (instrument: number, units: bigint) => {
    let perShare = netPerShare.get(instrument);
    if (perShare === undefined) {
      perShare = converted[instrument]
        ? toUnits(price.minus(model.instruments[instrument].strike), WEIGHT_DECIMALS)
        : 0n;
      netPerShare.set(instrument, perShare);
    }
    return units * perShare;
  };
  const weights = [
    ...model.classes.map((c) => toUnits(payouts[c.instrument], scale)),
    ...model.options.map((o) => optionWeight(o.instrument, o.units)),
    ...model.convertibles.map((c) => toUnits(payouts[c.instrument], scale)),
  ];
  const cents = apportionUnits(toUnits(distributable, 2), weights);

  const holderCents: bigint[] = model.holderKeys.map(() => 0n);
  const byClass: WaterfallClassResult[] = model.classes.map((c, i) => {
    const classCents = cents[i];
    if (c.holdings.length > 0) {
      const split = apportionUnits(
        classCents,
        c.holdings.map((h) => model.holdings[h].units),
      );
      c.holdings.forEach((h, j) => (holderCents[model.holdings[h].holderIndex] += split[j]));
    } else if (classCents !== 0n) {
      // Cannot happen: a class without holdings has no weight.
      throw new CapMathError(`Class "${c.key}" has proceeds but no holdings`, 'holdings');
    }
    const preference = preferences[c.instrument];
    const [preferenceCents, participationCents] = apportionUnits(classCents, [
      toUnits(preference, scale),
      toUnits(payouts[c.instrument].minus(preference), scale),
    ]);
    return {
      key: c.key,
      name: c.name,
      preference: fromUnits(preferenceCents, 2),
      participation: fromUnits(participationCents, 2),
      converted: c.preferred && converted[c.instrument],
      proceeds: fromUnits(classCents, 2),
    };
  });
  let row = model.classes.length;
  const options: WaterfallOptionResult[] = model.options.map((o) => {
    const optionCents = cents[row++];
    holderCents[o.holderIndex] += optionCents;
    return {
      key: o.key,
      holderKey: model.holderKeys[o.holderIndex],
      exercised: converted[o.instrument],
      proceeds: fromUnits(optionCents, 2),
    };
  });
  const convertibles: WaterfallConvertibleResult[] = model.convertibles.map((c) => {
    const convertibleCents = cents[row++];
    holderCents[c.holderIndex] += convertibleCents;
    return {
      key: c.key,
      holderKey: model.holderKeys[c.holderIndex],
      converted: converted[c.instrument],
      conversionPrice: c.conversionPrice,
      conversionShares: c.conversionShares,
      proceeds: fromUnits(convertibleCents, 2),
    };
  });

  const percents = distributable.isZero()
    ? holderCents.map(() => 0n)
    : apportionUnits(HUNDRED_PERCENT, holderCents);
  return {
    distributable,
    commonSharePrice: price,
    byClass,
    byHolder: model.holderKeys.map((holderKey, i) => ({
      holderKey,
      proceeds: fromUnits(holderCents[i], 2),
      percentOfProceeds: fromUnits(percents[i], PERCENT_DECIMALS),
    })),
    options,
    convertibles,
  };
}
