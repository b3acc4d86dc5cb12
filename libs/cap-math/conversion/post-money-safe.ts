import Decimal from 'decimal.js';
import { D, DecimalInput } from '../decimal';
import { CapMathError } from '../errors';
import { nonNegative, positive, uniqueKeys } from '../validate';
import { parseTerms, PriceCandidate, roundPriceCandidate, sharesFor } from './conversion-price';
import { Conversion, ConvertibleTerms } from './conversion-types';

export interface CompanyCapitalizationInput {
  /** All shares of capital stock issued and outstanding (preferred as converted). */
  issuedShares: DecimalInput;
  /** Issued and outstanding options (and warrants), as the shares they are for. */
  outstandingOptions?: DecimalInput;
  /** Options promised in offer letters or a term sheet but not yet granted. */
  promisedOptions?: DecimalInput;
  /**
   * Reserved, ungranted pool before the round. An increase made in connection with the
   * round is excluded by the safe, so it does not belong here.
   */
  unissuedOptionPool?: DecimalInput;
  /**
   * Shares that other converting securities (pre-money safes, notes) convert into in the
   * same round, already computed. Post-money safes are solved for and do not go here.
   */
  otherConvertingShares?: DecimalInput;
}

export interface PostMoneySafe extends ConvertibleTerms {
  key: string;
  purchaseAmount: DecimalInput;
}

export interface PostMoneySafesInput {
  capitalization: CompanyCapitalizationInput;
  /** Price per share of the standard preferred sold in the round. */
  standardPreferredPrice: DecimalInput;
  safes: readonly PostMoneySafe[];
  /** Keep fractional shares instead of rounding each conversion down. */
  fractional?: boolean;
}

export interface PostMoneySafeConversion extends Conversion {
  key: string;
}

export interface PostMoneySafesResult {
  /** Company Capitalization including every safe's shares, unrounded. */
  companyCapitalization: Decimal;
  conversions: PostMoneySafeConversion[];
}

interface SafeState {
  key: string;
  amount: Decimal;
  round: PriceCandidate;
  /** Shares at the round's terms: amount / round price. */
  roundShares: Decimal;
  capped?: {
    cap: Decimal;
    /** Ownership of Company Capitalization bought at the cap: amount / cap. */
    fraction: Decimal;
    /** The cap price cap / C beats the round price once C exceeds cap / round price. */
    threshold: Decimal;
  };
}

type CappedSafe = SafeState & { capped: NonNullable<SafeState['capped']> };

// Slack for 60-digit rounding when checking on which side of a threshold a solution lies.
const EPSILON = new D('1e-30');

/**
 * Post-money safes (YC, 2018+) converting in an equity financing. Safe Price = Post-Money
 * Valuation Cap / Company Capitalization, where Company Capitalization C counts the safes'
 * own conversion shares; each safe converts at the lower of its Safe Price and its discount
 * price (round price × (1 − discount)). With no discount, one safe converting at its cap
 * owns exactly purchase amount / cap of C.
 *
 * Closed form: C = base + Σ_round amount/price + C · Σ_cap amount/cap, so
 * C = (base + Σ_round amount/price) / (1 − Σ_cap amount/cap). Which safes take the cap
 * depends on C (a cap wins when C > cap / round price), so the safes are sorted by that
 * threshold and the first consistent split is taken; the solution is unique because C grows
 * strictly faster than the safes' claim on it while their cap fractions add up to less than 1.
 *
 * Conversion prices keep full precision; each safe's shares are rounded down (unless
 * `fractional`), and the returned Company Capitalization is the unrounded solution.
 */
export function convertPostMoneySafes(input: PostMoneySafesInput): PostMoneySafesResult {
  uniqueKeys(
    'safes',
    input.safes.map((s) => s.key),
  );
  const price = positive('standardPreferredPrice', input.standardPreferredPrice);
  const base = capitalizationBase(input.capitalization);
  const safes: SafeState[] = input.safes.map((safe) => {
    const amount = positive(`purchaseAmount of "${safe.key}"`, safe.purchaseAmount);
    const { cap, discount } = parseTerms(safe);
    const round = roundPriceCandidate(price, discount);
    return {
      key: safe.key,
      amount,
      round,
      roundShares: amount.div(round.price),
      capped: cap && { cap, fraction: amount.div(cap), threshold: cap.div(round.price) },
    };
  });

  const { fixedShares, uncappedShare, atCap } = solveCapitalization(base, safes);
  const capitalization = fixedShares.div(uncappedShare);
  const conversions = safes.map((safe): PostMoneySafeConversion => {
    if (safe.capped && atCap.has(safe)) {
      // cap / C and amount · C / cap, each with a single division so that terminating
      // results (the guide's $0.34) come out exact rather than as 0.3399...9.
      const capTimesShare = safe.capped.cap.times(uncappedShare);
      return {
        key: safe.key,
        method: 'cap',
        conversionPrice: capTimesShare.div(fixedShares),
        shares: sharesFor(safe.amount.times(fixedShares).div(capTimesShare), input.fractional),
      };
    }
    return {
      key: safe.key,
      method: safe.round.method,
      conversionPrice: safe.round.price,
      shares: sharesFor(safe.roundShares, input.fractional),
    };
  });
  return { companyCapitalization: capitalization, conversions };
}

function capitalizationBase(c: CompanyCapitalizationInput): Decimal {
  const base = nonNegative('issuedShares', c.issuedShares)
    .plus(nonNegative('outstandingOptions', c.outstandingOptions ?? 0))
    .plus(nonNegative('promisedOptions', c.promisedOptions ?? 0))
    .plus(nonNegative('unissuedOptionPool', c.unissuedOptionPool ?? 0))
    .plus(nonNegative('otherConvertingShares', c.otherConvertingShares ?? 0));
  if (base.isZero()) {
    throw new CapMathError(
      'Company Capitalization before the safes must be greater than zero',
      'capitalization',
    );
  }
  return base;
}

/**
 * C = fixedShares / uncappedShare, where fixedShares is the base plus the shares of the safes
 * converting at the round's terms and uncappedShare is 1 minus the capped safes' fractions.
 */
function solveCapitalization(
  base: Decimal,
  safes: readonly SafeState[],
): { fixedShares: Decimal; uncappedShare: Decimal; atCap: Set<SafeState> } {
  const capped = safes
    .filter((s): s is CappedSafe => s.capped !== undefined)
    .sort((a, b) => a.capped.threshold.comparedTo(b.capped.threshold));
  // Try "the j lowest thresholds take the cap" for j = 0, 1, ...; the solution C must lie
  // between the j-th and (j+1)-th thresholds for the split to be consistent.
  for (let j = 0; j <= capped.length; j++) {
    const atCap = new Set<SafeState>(capped.slice(0, j));
    const capFractions = capped
      .slice(0, j)
      .reduce((acc, s) => acc.plus(s.capped.fraction), new D(0));
    if (capFractions.greaterThanOrEqualTo(1)) {
      break;
    }
    const fixedShares = safes
      .filter((s) => !atCap.has(s))
      .reduce((acc, s) => acc.plus(s.roundShares), base);
    const uncappedShare = new D(1).minus(capFractions);
    const capitalization = fixedShares.div(uncappedShare);
    const lower = j > 0 ? capped[j - 1].capped.threshold : undefined;
    const upper = j < capped.length ? capped[j].capped.threshold : undefined;
    if (
      (!lower || capitalization.greaterThanOrEqualTo(lower.minus(EPSILON))) &&
      (!upper || capitalization.lessThanOrEqualTo(upper.plus(EPSILON)))
    ) {
      return { fixedShares, uncappedShare, atCap };
    }
  }
  throw new CapMathError(
    'The post-money safes converting at their caps would own 100% or more of the company',
    'safes',
  );
}
