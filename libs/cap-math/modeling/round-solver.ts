import Decimal from 'decimal.js';
import { D } from '../decimal';
import { CapMathError } from '../errors';
import { RoundConvertibleType } from './round-types';

/**
 * The exact (continuous, unrounded) solution of a priced round: price, pool increase and
 * conversion shares, before any share count is rounded. Internal to `modelRound`.
 *
 * Unknowns: u = 1 / price (shares per unit of money), C (the post-money SAFEs' Company
 * Capitalization) and X (the pool increase). Knowns: E = issued + options + pool available
 * (all existing fully diluted shares), A = pool available, V = pre-money valuation,
 * M = new money, b = 1 when the pool increase is in the pre-money (else 0), t = the target
 * post-money pool fraction.
 *
 * Every converting security receives the larger of two share counts (it converts at the lower
 * of two prices):
 *   round terms   amount / (price · (1 − discount))  =  r · u,      r = amount / (1 − discount)
 *   cap terms     amount / (cap / base)              =  f · base,   f = amount / cap
 * where base is C for post-money SAFEs, E + X for pre-money SAFEs (the original safe counts the
 * pool "created or increased in connection with the Equity Financing") and E + b·X for notes
 * (the pre-money fully diluted shares before conversions). The equations are
 *   (1) C = E + Σ shares of all converting securities
 *   (2) V · u = C + b · X                      (price = V / pre-money fully diluted shares)
 *   (3) X = max(0, t · (C + X + M · u) − A)    (pool after = t × post-money fully diluted),
 *       or X = the fixed increase, or X = 0 without a top-up.
 * (post-money fully diluted = C + b·X + M·u + (1 − b)·X = C + X + M·u.)
 *
 * Every right-hand side is a maximum of affine functions with non-negative coefficients, so
 * the system is monotone and piecewise linear. A "policy" picks one affine piece per maximum
 * (which securities take their cap, whether the top-up binds); for a fixed policy the system
 * is linear and solved in closed form below. Policy iteration (Howard's algorithm) finds the
 * policy that is consistent with its own solution: start with every security at the round's
 * terms and no top-up, solve, switch every maximum whose other piece is strictly larger at
 * that solution, solve again. Each solution is componentwise at least the previous one (the
 * policy matrices are M-matrices, checked below), so no policy repeats and the loop ends after
 * a few steps with the exact solution, as a post-money SAFE calculation does with its sorted
 * thresholds. The solution is unique: any other fixed point would dominate it and then equal
 * it, because the last policy's matrix is invertible with a non-negative inverse.
 */

export interface SolverInstrument {
  kind: RoundConvertibleType;
  /** r = amount / (1 − discount): shares per unit of u at the round's terms. */
  roundCoefficient: Decimal;
  /** f = amount / cap; absent for an uncapped instrument. */
  capFraction?: Decimal;
}

export type SolverPool =
  { kind: 'none' } | { kind: 'fixed'; increase: Decimal } | { kind: 'percent'; fraction: Decimal };

export interface SolverInput {
  /** E: issued + outstanding options + pool available. */
  existing: Decimal;
  /** A: pool available. */
  poolAvailable: Decimal;
  /** V. */
  preMoney: Decimal;
  /** M. */
  newMoney: Decimal;
  poolInPreMoney: boolean;
  pool: SolverPool;
  instruments: readonly SolverInstrument[];
}

export interface ContinuousSolution {
  price: Decimal;
  /** u = 1 / price. */
  sharesPerMoney: Decimal;
  poolIncrease: Decimal;
  companyCapitalization: Decimal;
  atCap: readonly boolean[];
}

interface Policy {
  atCap: boolean[];
  topUp: boolean;
}

interface Point {
  u: Decimal;
  C: Decimal;
  X: Decimal;
}

const ZERO = new D(0);
const ONE = new D(1);
// Relative slack for 60-digit rounding when comparing two pieces of a maximum: a switch needs
// a strictly larger value beyond it, so round-off can never make the iteration cycle.
const SLACK = new D('1e-40');

/** Price unknown: solves (1), (2) and (3). */
export function solveRound(input: SolverInput): ContinuousSolution {
  return iterate(input, (policy) => solveForPrice(input, policy));
}

/**
 * Price given (the rounded price, when the caller asked for `priceDecimals`): drops (2) and
 * solves (1) and (3) for C and X at that price.
 */
export function solveAtPrice(input: SolverInput, price: Decimal): ContinuousSolution {
  return iterate(input, (policy) => solveForPool(input, policy, price));
}

function iterate(
  input: SolverInput,
  solve: (policy: Policy) => Point & { price: Decimal },
): ContinuousSolution {
  const policy: Policy = { atCap: input.instruments.map(() => false), topUp: false };
  // Each step strictly increases the solution, so a policy never comes back; the bound is
  // a guard against a bug, far above the handful of steps real rounds take.
  const maxSteps = 4 * (input.instruments.length + 2) + 50;
  for (let step = 0; step < maxSteps; step++) {
    const point = solve(policy);
    if (!improve(input, policy, point)) {
      return {
        price: point.price,
        sharesPerMoney: point.u,
        poolIncrease: point.X,
        companyCapitalization: point.C,
        atCap: policy.atCap,
      };
    }
  }
  throw new CapMathError(
    'The round has no consistent solution (the iteration did not settle)',
    'convertibles',
  );
}

interface PolicySums {
  /** Σ r over the securities at the round's terms. */
  roundShares: Decimal;
  /** Σ f of capped post-money SAFEs, pre-money SAFEs and notes. */
  fPost: Decimal;
  fPre: Decimal;
  fNote: Decimal;
}

function sums(input: SolverInput, policy: Policy): PolicySums {
  const s: PolicySums = { roundShares: ZERO, fPost: ZERO, fPre: ZERO, fNote: ZERO };
  input.instruments.forEach((inst, i) => {
    if (!policy.atCap[i] || !inst.capFraction) {
      s.roundShares = s.roundShares.plus(inst.roundCoefficient);
    } else if (inst.kind === 'post_money_safe') {
      s.fPost = s.fPost.plus(inst.capFraction);
    } else if (inst.kind === 'pre_money_safe') {
      s.fPre = s.fPre.plus(inst.capFraction);
    } else {
      s.fNote = s.fNote.plus(inst.capFraction);
    }
  });
  return s;
}

/**
 * Shared terms of a policy. With h = fPre + b·fNote, equation (1) reads
 *   C · (1 − fPost) = E · (1 + fPre + fNote) + R · u + h · X,    R = Σ r at the round's terms.
 */
function terms(input: SolverInput, policy: Policy) {
  const s = sums(input, policy);
  const b = input.poolInPreMoney ? ONE : ZERO;
  const uncapped = ONE.minus(s.fPost);
  if (uncapped.lessThanOrEqualTo(0)) {
    throw new CapMathError(
      'The post-money SAFEs converting at their caps would own 100% or more of the company',
      'convertibles',
    );
  }
  const h = s.fPre.plus(b.times(s.fNote));
  const base = input.existing.times(ONE.plus(s.fPre).plus(s.fNote));
  let t = ZERO;
  if (input.pool.kind === 'percent' && policy.topUp) {
    t = input.pool.fraction;
    // Leading minor of the (X, C) block: t · (1 + h / (1 − fPost)) < 1, i.e. a new pool share
    // (and the cap shares it adds) must raise the post-money count by less than 1 / t.
    const minor = ONE.minus(t).times(uncapped).minus(t.times(h));
    if (minor.lessThanOrEqualTo(0)) {
      throw new CapMathError(
        'optionPoolTopUp.postMoneyPercent cannot be reached: the converting securities at their caps grow with the pool',
        'optionPoolTopUp.postMoneyPercent',
      );
    }
  }
  return { ...s, b, uncapped, h, base, t };
}

/**
 * One policy, price unknown. From (3), X = α·u − β with D = 1 − t·(1 − b),
 * α = t·(V + M) / D, β = A / D when the top-up binds (α = 0, β = −increase for a fixed increase,
 * α = β = 0 without). Substituting C = V·u − b·X from (2) into (1):
 *   u · [V·(1 − fPost) − R − g·α] = E·(1 + fPre + fNote) − g·β,    g = b·(1 − fPost) + h.
 * The bracket is the determinant of the policy's matrix (up to a positive factor): it must be
 * positive, and so must u.
 */
function solveForPrice(input: SolverInput, policy: Policy): Point & { price: Decimal } {
  const k = terms(input, policy);
  const V = input.preMoney;
  let alpha = ZERO;
  let beta = ZERO;
  if (input.pool.kind === 'fixed') {
    beta = input.pool.increase.negated();
  } else if (k.t.greaterThan(0)) {
    const d = ONE.minus(k.t.times(ONE.minus(k.b)));
    alpha = k.t.times(V.plus(input.newMoney)).div(d);
    beta = input.poolAvailable.div(d);
  }
  const g = k.b.times(k.uncapped).plus(k.h);
  const den = V.times(k.uncapped).minus(k.roundShares).minus(g.times(alpha));
  const num = k.base.minus(g.times(beta));
  if (den.lessThanOrEqualTo(0)) {
    throw new CapMathError(
      'The round has no solution: the converting securities and the option pool would take the whole pre-money valuation',
      'preMoneyValuation',
    );
  }
  if (num.lessThanOrEqualTo(0)) {
    throw new CapMathError(
      'The round has no solution: the pre-money fully diluted shares are not positive',
      'holders',
    );
  }
  // One division per result, so terminating values (a price of 0.875) come out exact.
  const X =
    input.pool.kind === 'fixed'
      ? input.pool.increase
      : alpha.times(num).minus(beta.times(den)).div(den);
  const C = V.times(num).div(den).minus(k.b.times(X));
  return { price: den.div(num), u: num.div(den), X, C };
}

/**
 * One policy, price P given. (3) with C from (1):
 *   X · [(1 − t)(1 − fPost) − t·h] = t·(E·(1 + fPre + fNote) + R·u + M·u·(1 − fPost)) − A·(1 − fPost),
 * multiplied through by P below so that u = 1 / P is never rounded.
 */
function solveForPool(
  input: SolverInput,
  policy: Policy,
  price: Decimal,
): Point & { price: Decimal } {
  const k = terms(input, policy);
  let X = ZERO;
  if (input.pool.kind === 'fixed') {
    X = input.pool.increase;
  } else if (k.t.greaterThan(0)) {
    const minor = ONE.minus(k.t).times(k.uncapped).minus(k.t.times(k.h));
    X = k.t
      .times(k.base.times(price).plus(k.roundShares).plus(input.newMoney.times(k.uncapped)))
      .minus(input.poolAvailable.times(k.uncapped).times(price))
      .div(minor.times(price));
  }
  const C = k.base
    .times(price)
    .plus(k.roundShares)
    .plus(k.h.times(X).times(price))
    .div(k.uncapped.times(price));
  return { price, u: ONE.div(price), X, C };
}

/**
 * Switches every maximum whose other piece is strictly larger at the point; false when the
 * policy is consistent with its own solution (the fixed point).
 */
function improve(input: SolverInput, policy: Policy, p: Point): boolean {
  let changed = false;
  const b = input.poolInPreMoney ? ONE : ZERO;
  input.instruments.forEach((inst, i) => {
    if (!inst.capFraction) {
      return;
    }
    const base =
      inst.kind === 'post_money_safe'
        ? p.C
        : inst.kind === 'pre_money_safe'
          ? input.existing.plus(p.X)
          : input.existing.plus(b.times(p.X));
    const atCap = inst.capFraction.times(base);
    const atRound = inst.roundCoefficient.times(p.u);
    const wantCap = policy.atCap[i] ? !exceeds(atRound, atCap) : exceeds(atCap, atRound);
    if (wantCap !== policy.atCap[i]) {
      policy.atCap[i] = wantCap;
      changed = true;
    }
  });
  if (input.pool.kind === 'percent' && input.pool.fraction.greaterThan(0)) {
    // The top-up's piece: t · (C + X + M·u) − A, against 0.
    const binding = policy.topUp
      ? !exceeds(ZERO, p.X)
      : exceeds(
          input.pool.fraction.times(p.C.plus(p.X).plus(input.newMoney.times(p.u))),
          input.poolAvailable,
        );
    if (binding !== policy.topUp) {
      policy.topUp = binding;
      changed = true;
    }
  }
  return changed;
}

function exceeds(a: Decimal, b: Decimal): boolean {
  return a.minus(b).greaterThan(a.abs().plus(b.abs()).times(SLACK));
}
