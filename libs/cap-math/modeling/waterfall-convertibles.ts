import Decimal from 'decimal.js';
import { D } from '../decimal';
import { CapMathError } from '../errors';
import { inRange, nonNegative, positive } from '../validate';
import { InputField, invalid, named } from './input-field';
import { Holders, seniorityOf } from './waterfall-input';
import { ModelConvertible } from './waterfall-model-types';
import { money, Payoffs } from './waterfall-payoffs';
import { WaterfallConvertible, WaterfallConvertibleKind } from './waterfall-types';

const ZERO = new D(0);
const CONVERTIBLE_KINDS: readonly WaterfallConvertibleKind[] = [
  'post-money-safe',
  'pre-money-safe',
  'note',
];

/**
 * One instrument per SAFE or note: its cash-out amount, paid by seniority (by default a SAFE's
 * with the most senior preferred class, a note's one above), or its conversion shares.
 */
export function addConvertibles(
  convertiblesIn: readonly WaterfallConvertible[],
  capitalization: Decimal,
  mostSeniorPreferred: number | undefined,
  holders: Holders,
  payoffs: Payoffs,
): ModelConvertible[] {
  const parsed = conversionTerms(convertiblesIn, capitalization, holders);
  const safeSeniority = mostSeniorPreferred ?? 0;
  return parsed.map((c, i) => {
    const seniority = seniorityOf(
      { path: `convertibles[${i}].seniority`, label: `seniority of convertible "${c.key}"` },
      convertiblesIn[i].seniority,
      c.kind === 'note' ? safeSeniority + 1 : safeSeniority,
    );
    const instrument = payoffs.add({
      kind: 'fixed-or-convert',
      weight: c.conversionShares,
      preference: c.amount,
      convertAbove: c.conversionPrice,
    });
    if (c.conversionPrice && !c.conversionShares.isZero()) {
      payoffs.slopeChange({
        p: c.conversionPrice,
        instrument,
        delta: c.conversionShares,
        event: {
          kind: 'conversion',
          convertibleKey: c.key,
          description: `${c.key} converts: a common share is worth more than its liquidity price of ${money(c.conversionPrice)}`,
        },
      });
    }
    if (!c.amount.isZero()) {
      payoffs.preference(seniority, instrument, {
        kind: 'preference',
        convertibleKey: c.key,
        description: `${c.key}: cash-out amount of ${money(c.amount)} paid in full`,
      });
    }
    return {
      key: c.key,
      holderIndex: c.holderIndex,
      instrument,
      conversionPrice: c.conversionPrice,
      conversionShares: c.conversionShares,
    };
  });
}

interface ConversionTerms {
  key: string;
  holderIndex: number;
  kind: WaterfallConvertibleKind;
  amount: Decimal;
  conversionPrice: Decimal | null;
  conversionShares: Decimal;
}

/**
 * Conversion shares in a liquidity event, by the instruments' own capitalization rules,
 * on the capital stock as converted plus the options given (the input's options are the
 * ones outstanding at the exit; there is no unissued pool in an exit):
 * - pre-money SAFE, note: price = cap / that capitalization;
 * - post-money SAFE: price = cap / Liquidity Capitalization, which counts the post-money
 *   SAFEs' own conversion shares (and those of the pre-money SAFEs and notes), solved in closed
 *   form: L = (base + other converting shares) / (1 − Σ amount / cap), so each post-money SAFE
 *   converts into exactly amount / cap of L.
 * Every capped instrument counts in the capitalization whether it converts or cashes out, a
 * simplification of the YC definition (which leaves out safes taking their cash-out amount):
 * the conversion shares, and so each instrument's choice, do not depend on the others' choices.
 */
function conversionTerms(
  convertiblesIn: readonly WaterfallConvertible[],
  capitalization: Decimal,
  holders: Holders,
): ConversionTerms[] {
  const parsed = convertiblesIn.map((c, i) => {
    const field = (f: string): InputField => ({
      path: `convertibles[${i}].${f}`,
      label: `${f} of convertible "${c.key}"`,
    });
    const holderIndex = holders.index(`convertibles[${i}].holderKey`, c.holderKey);
    if (!CONVERTIBLE_KINDS.includes(c.kind)) {
      throw invalid(
        field('kind'),
        (label) => `${label} must be one of ${CONVERTIBLE_KINDS.join(', ')}`,
      );
    }
    const amount = named(field('amount'), (label) => nonNegative(label, c.amount));
    const cap =
      c.valuationCap === undefined || c.valuationCap === null
        ? null
        : named(field('valuationCap'), (label) => positive(label, c.valuationCap!));
    if (c.discount !== undefined && c.discount !== null) {
      const discount = named(field('discount'), (label) => inRange(label, c.discount!, 0, 1));
      if (discount.equals(1)) {
        throw invalid(
          field('discount'),
          (label) => `${label} must be below 1 (a fraction: 0.2 is 20%)`,
        );
      }
    }
    return { key: c.key, holderIndex, kind: c.kind, amount, cap };
  });
  if (capitalization.isZero()) {
    // No shares to convert into: every instrument takes its cash-out amount.
    return parsed.map((c) => ({ ...c, conversionPrice: null, conversionShares: ZERO }));
  }
  let otherConverting = ZERO;
  let capFractions = ZERO;
  for (const c of parsed) {
    if (!c.cap) continue;
    if (c.kind === 'post-money-safe') {
      capFractions = capFractions.plus(c.amount.div(c.cap));
    } else {
      otherConverting = otherConverting.plus(c.amount.times(capitalization).div(c.cap));
    }
  }
  if (capFractions.greaterThanOrEqualTo(1)) {
    throw new CapMathError(
      'The post-money SAFEs at their caps would own 100% or more of the company (Σ amount / cap ≥ 1)',
      'convertibles',
    );
  }
  const liquidityCapitalization = capitalization.plus(otherConverting);
  const uncapped = new D(1).minus(capFractions);
  return parsed.map((c) => {
    if (!c.cap) return { ...c, conversionPrice: null, conversionShares: ZERO };
    if (c.kind === 'post-money-safe') {
      return {
        ...c,
        conversionPrice: c.cap.times(uncapped).div(liquidityCapitalization),
        conversionShares: c.amount.times(liquidityCapitalization).div(c.cap.times(uncapped)),
      };
    }
    return {
      ...c,
      conversionPrice: c.cap.div(capitalization),
      conversionShares: c.amount.times(capitalization).div(c.cap),
    };
  });
}
