import { nonNegative } from '../validate';
import { named } from './input-field';
import { addClasses } from './waterfall-classes';
import { addConvertibles } from './waterfall-convertibles';
import { readHoldings } from './waterfall-holdings';
import { checkKeys, Holders } from './waterfall-input';
import { WaterfallModel } from './waterfall-model-types';
import { addOptions } from './waterfall-options';
import { Payoffs } from './waterfall-payoffs';
import { WaterfallStructure } from './waterfall-types';

export type {
  Instrument,
  Kink,
  ModelClass,
  ModelConvertible,
  ModelHolding,
  ModelOption,
  PayoffKind,
  Segment,
  Tier,
  WaterfallModel,
} from './waterfall-model-types';

/**
 * The exit waterfall as a function of one number, p: the value of a common share. Every
 * security's payout is a non-decreasing, continuous, piecewise-linear function of p (its
 * "payoff"), and the payouts at an exit are those at the p where they add up to the
 * distributable amount. `buildWaterfallModel` turns the input into that description, in the
 * steps of the files it imports; `waterfall-solve.ts` evaluates it.
 *
 * Payoffs, for n shares (or the shares an instrument stands for):
 * - common:                      w·p, where w = n × conversion ratio
 * - non-participating preferred: P while p ≤ P / w, then w·p (converted); P = n × multiple × OIP
 * - participating preferred:     P + w·p; with a cap, P + min(w·p, H) while p ≤ (P + H) / w, then
 *                                w·p (converted), where H = n × (cap − multiple) × OIP
 * - options (one instrument per exercise price K, n = their shares): n × max(p − K, 0)
 * - SAFE / note with a cap:      its amount A while p ≤ its liquidity price, then its conversion
 *                                shares × p; without a cap: A
 */
export function buildWaterfallModel(input: WaterfallStructure): WaterfallModel {
  const expenses = named('transactionExpenses', (label) =>
    nonNegative(label, input.transactionExpenses ?? 0),
  );
  const classesIn = input.classes ?? [];
  checkKeys(input);
  // Holders are numbered as they first appear: in holdings, options, convertibles.
  const holders = new Holders();
  const held = readHoldings(input.holdings ?? [], classesIn, holders);
  const payoffs = new Payoffs();
  const { classes, capitalStock, mostSeniorPreferred } = addClasses(classesIn, held, payoffs);
  const options = addOptions(input.options ?? [], holders, payoffs);
  const convertibles = addConvertibles(
    input.convertibles ?? [],
    capitalStock.plus(options.shares),
    mostSeniorPreferred,
    holders,
    payoffs,
  );
  return {
    expenses,
    instruments: payoffs.instruments,
    classes,
    holdings: held.holdings,
    holdingScale: held.scale,
    options: options.options,
    optionScale: options.scale,
    convertibles,
    ...payoffs.shape(),
    holderKeys: holders.keys,
  };
}
