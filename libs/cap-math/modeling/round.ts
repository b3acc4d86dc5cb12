import Decimal from 'decimal.js';
import { roundPrice, sharesFor } from '../conversion/conversion-price';
import { ConversionMethod } from '../conversion/conversion-types';
import { convertInFinancing } from '../conversion/financing';
import { D } from '../decimal';
import { CapMathError } from '../errors';
import { largestRemainder } from '../largest-remainder';
import { parseRoundInput, ParsedRound } from './round-input';
import { solveAtPrice, solveRound, SolverInput } from './round-solver';
import {
  ConversionBasis,
  RoundConversion,
  RoundHolderRow,
  RoundInvestor,
  RoundModel,
  RoundModelInput,
} from './round-types';

/** Key of the unallocated pool's row in `byHolder` (its `kind` is 'pool'). */
export const POOL_ROW_KEY = 'pool';
export const POOL_ROW_NAME = 'Unallocated pool';

const ZERO = new D(0);
const HUNDRED = new D(100);
/** As ownershipPercentages: 4 places. */
const PERCENT_DECIMALS = 4;

interface Discrete {
  conversions: RoundConversion[];
  investors: RoundInvestor[];
  preMoneyFullyDiluted: Decimal;
  postMoneyFullyDiluted: Decimal;
}

/**
 * Pro-forma priced round: what a new round does to the cap table, nothing stored.
 *
 * Definitions (README, "Pro-forma round modeling"):
 * - Pre-money fully diluted shares (PMFD) = issued + outstanding options + unallocated pool
 *   + the pool increase when `poolIncludedInPreMoney` + the shares every converting SAFE and
 *   note receives; price per share = preMoneyValuation / PMFD.
 * - Post-money SAFEs convert at min(cap / Company Capitalization, price × (1 − discount)), with
 *   Company Capitalization = issued + options + pool before the round + all converting
 *   securities' shares (the safe's definition: the pool increase made for the round is not in
 *   it). Pre-money SAFEs at min(cap / (issued + options + pool + increase), discounted price).
 *   Notes convert principal + interest accrued to closingDate at min(cap / (issued + options +
 *   pool + the increase if in the pre-money), discounted price). A security with neither cap
 *   nor discount converts at the round price (basis 'mfn' when flagged MFN, else 'round').
 * - optionPoolTopUp.postMoneyPercent: the whole unallocated pool after the round is that
 *   percent of the post-money fully diluted shares; increase = max(0, target − poolAvailable).
 * - New investors: amount / price shares, rounded down.
 *
 * Price, pool increase and conversions depend on one another; they are solved exactly (see
 * round-solver.ts: a closed form per regime, the regime found by policy iteration). Then, in
 * this order: the price is rounded to `priceDecimals` if asked; the pool increase is the exact
 * increase at that price rounded up to a whole share (raised further, when rounded share counts
 * would leave the pool short, until the pool is at least the target); every conversion is
 * `convertInFinancing`'s at that price and pool increase (the function of the ledger's
 * conversions and the dashboard's preview, the increase counted by each kind's definition above:
 * `FinancingPoolIncrease`), every investment amount / price, each rounded down.
 * Without `fractional`, PMFD and the post-money count are sums of whole share counts, so
 * preMoneyValuation / PMFD equals the price only up to that rounding, as in the YC guide.
 */
export function modelRound(input: RoundModelInput): RoundModel {
  const p = parseRoundInput(input);
  const solverInput: SolverInput = {
    existing: p.existing,
    poolAvailable: p.poolAvailable,
    preMoney: p.preMoney,
    newMoney: p.newMoney,
    poolInPreMoney: p.poolInPreMoney,
    pool: p.pool,
    instruments: p.converting.map((c) => ({
      kind: c.type,
      roundCoefficient: c.amount.div(new D(1).minus(c.discount)),
      capFraction: c.cap && c.amount.div(c.cap),
    })),
  };
  const exact = solveRound(solverInput);
  const price = roundPrice(exact.price, p.priceDecimals);

  let increase = ZERO;
  if (p.pool.kind === 'fixed') {
    increase = p.pool.increase;
  } else if (p.pool.kind === 'percent') {
    const atPrice = price.equals(exact.price) ? exact : solveAtPrice(solverInput, price);
    const exactIncrease = Decimal.max(atPrice.poolIncrease, 0);
    increase = p.fractional ? exactIncrease : ceilToWhole(exactIncrease);
  }

  let discrete = atPriceAndPool(p, price, increase);
  if (p.pool.kind === 'percent' && !p.fractional) {
    const target = p.pool.fraction;
    // Rounded share counts can leave the pool short of its target when `priceDecimals` rounds
    // conversion prices away from the exact solution (without it, the exact increase rounded
    // up always suffices: every other count is rounded down). Each step adds the fewest shares
    // that could close the gap, as the post-money count never falls when the pool grows, so
    // the result is the smallest sufficient increase from the rounded-up exact one.
    for (let step = 0; ; step++) {
      const shortfall = target
        .times(discrete.postMoneyFullyDiluted)
        .minus(p.poolAvailable.plus(increase));
      if (shortfall.lessThanOrEqualTo(0)) {
        break;
      }
      if (step >= 1000) {
        throw new CapMathError(
          'optionPoolTopUp.postMoneyPercent cannot be reached in whole shares',
          'optionPoolTopUp.postMoneyPercent',
        );
      }
      increase = increase.plus(ceilToWhole(shortfall));
      discrete = atPriceAndPool(p, price, increase);
    }
  }

  return {
    pricePerShare: price,
    preMoneyFullyDilutedShares: discrete.preMoneyFullyDiluted,
    postMoneyFullyDilutedShares: discrete.postMoneyFullyDiluted,
    preMoneyValuation: p.preMoney,
    postMoneyValuation: p.preMoney.plus(p.newMoney),
    newMoney: p.newMoney,
    poolIncrease: increase,
    conversions: discrete.conversions,
    investors: discrete.investors,
    byHolder: holderRows(p, discrete, increase),
  };
}

/**
 * Every conversion and investment at the final price and pool increase, each share count
 * rounded down: the conversions are `convertInFinancing`'s (the ledger's and the dashboard's)
 * on the capitalization before the round, with the pool increase counted as each kind's terms
 * count it (`FinancingPoolIncrease`) and the notes' and pre-money SAFEs' prices rounded to
 * `priceDecimals`.
 */
function atPriceAndPool(p: ParsedRound, price: Decimal, increase: Decimal): Discrete {
  const inPreMoney = p.poolInPreMoney ? increase : ZERO;
  const converted = convertInFinancing({
    capitalization: {
      issuedShares: p.issued,
      outstandingOptions: p.options,
      unissuedOptionPool: p.poolAvailable,
    },
    poolIncrease: { shares: increase, inPreMoney: p.poolInPreMoney },
    date: p.closingDate,
    standardPreferredPrice: price,
    convertibles: p.converting.map((c) => c.instrument),
    fractional: p.fractional,
    ...(p.priceDecimals !== undefined && { priceDecimals: p.priceDecimals }),
  });

  let preMoneyFullyDiluted = p.existing.plus(inPreMoney);
  const conversions = p.converting.map((c, i): RoundConversion => {
    const r = converted[i];
    preMoneyFullyDiluted = preMoneyFullyDiluted.plus(r.shares);
    return {
      key: c.key,
      holderKey: c.holderKey,
      type: c.type,
      amount: r.conversionAmount,
      accruedInterest: c.accruedInterest,
      shares: r.shares,
      pricePerShare: r.conversionPrice,
      basis: basisOf(r.method, c.mfn),
    };
  });
  let postMoneyFullyDiluted = preMoneyFullyDiluted.plus(p.poolInPreMoney ? ZERO : increase);
  const investors = p.investments.map((i): RoundInvestor => {
    const shares = sharesFor(i.amount.div(price), p.fractional);
    postMoneyFullyDiluted = postMoneyFullyDiluted.plus(shares);
    return { name: i.name, amount: i.amount, shares };
  });
  return { conversions, investors, preMoneyFullyDiluted, postMoneyFullyDiluted };
}

function basisOf(method: ConversionMethod, mfn: boolean): ConversionBasis {
  if (method === 'price') {
    return mfn ? 'mfn' : 'round';
  }
  return method;
}

/**
 * A row per existing holder (then per holder of a converting security who is not one yet),
 * per new investor, and one for the unallocated pool. Percent columns by largest remainder,
 * 4 places, each summing to exactly 100: before over issued + options + pool (convertibles
 * not counted), after over the post-money fully diluted shares.
 */
function holderRows(p: ParsedRound, d: Discrete, increase: Decimal): RoundHolderRow[] {
  const converted = new Map<string, Decimal>();
  for (const c of d.conversions) {
    converted.set(c.holderKey, (converted.get(c.holderKey) ?? ZERO).plus(c.shares));
  }
  const rows: Omit<RoundHolderRow, 'fullyDilutedPercentBefore' | 'fullyDilutedPercentAfter'>[] = [];
  const known = new Set<string>();
  for (const h of p.holders) {
    known.add(h.key);
    rows.push({
      key: h.key,
      ...(h.name === undefined ? {} : { name: h.name }),
      kind: 'holder',
      sharesBefore: h.before,
      sharesAfter: h.before.plus(converted.get(h.key) ?? ZERO),
    });
  }
  for (const c of d.conversions) {
    if (!known.has(c.holderKey)) {
      known.add(c.holderKey);
      rows.push({
        key: c.holderKey,
        kind: 'holder',
        sharesBefore: ZERO,
        sharesAfter: converted.get(c.holderKey)!,
      });
    }
  }
  for (const i of d.investors) {
    rows.push({
      key: i.name,
      name: i.name,
      kind: 'investor',
      sharesBefore: ZERO,
      sharesAfter: i.shares,
    });
  }
  rows.push({
    key: POOL_ROW_KEY,
    name: POOL_ROW_NAME,
    kind: 'pool',
    sharesBefore: p.poolAvailable,
    sharesAfter: p.poolAvailable.plus(increase),
  });
  // What ownershipPercentages does, without its key and sign checks (rows go by position, as
  // an investor may share a name with a holder's key; every count here is already validated).
  const before = percents(rows.map((r) => r.sharesBefore));
  const after = percents(rows.map((r) => r.sharesAfter));
  return rows.map((r, i) => ({
    ...r,
    fullyDilutedPercentBefore: before[i],
    fullyDilutedPercentAfter: after[i],
  }));
}

/** Largest-remainder percentages to 4 places, summing to exactly 100 (all zeros for no shares). */
function percents(shares: Decimal[]): Decimal[] {
  return shares.every((s) => s.isZero())
    ? shares.map(() => ZERO)
    : largestRemainder(HUNDRED, shares, PERCENT_DECIMALS);
}

/** Whole shares, rounded up, after absorbing 60-digit division noise (as `floorToWhole`). */
function ceilToWhole(value: Decimal): Decimal {
  return value.toDecimalPlaces(40, Decimal.ROUND_HALF_UP).ceil();
}
