import Decimal from 'decimal.js';
import { D, DecimalInput, floorToWhole } from '../decimal';
import { IsoDate } from '../dates';
import { DayCountConvention } from '../day-count';
import { InterestType } from '../interest';
import { nonNegative, uniqueKeys } from '../validate';
import { Conversion, ConvertibleTerms } from './conversion-types';
import { convertNote } from './convertible-note';
import { CompanyCapitalizationInput, convertPostMoneySafes } from './post-money-safe';
import { convertPreMoneySafe } from './pre-money-safe';

export interface NoteInstrument extends ConvertibleTerms {
  key: string;
  kind: 'note';
  /** Principal still outstanding. */
  principal: DecimalInput;
  /** Annual rate as a fraction: "0.06" for 6%. */
  annualRate: DecimalInput;
  interestType: InterestType;
  dayCount: DayCountConvention;
  compoundingPeriodsPerYear?: number;
  /** Interest accrues from this date (the issue date, or the last repayment) to the financing. */
  interestFrom: IsoDate;
  /** Interest accrued before `interestFrom` and left unpaid: it converts too, at the same price. */
  unpaidInterest?: DecimalInput;
}

export interface SafeInstrument extends ConvertibleTerms {
  key: string;
  kind: 'pre_money_safe' | 'post_money_safe';
  purchaseAmount: DecimalInput;
}

export type ConvertibleInstrument = NoteInstrument | SafeInstrument;

/**
 * Pool shares reserved in connection with the financing, beyond the unissued pool before it (a
 * round's top-up). Whether a convertible's capitalization counts them is its documents' choice:
 * - a pre-money SAFE's always does (the original safe counts any plan "created or increased in
 *   connection with the Equity Financing");
 * - a post-money SAFE's never does (its Company Capitalization excludes that increase);
 * - a note's does when the increase is in the pre-money fully diluted shares (`inPreMoney`): its
 *   cap price divides the cap by the fully diluted shares the round's price divides by, before
 *   the conversions.
 */
export interface FinancingPoolIncrease {
  shares: DecimalInput;
  inPreMoney: boolean;
}

export interface FinancingInput {
  /**
   * The company immediately before the financing: issued shares with preferred as converted to
   * common, outstanding options, options promised but not granted, the unissued pool, and
   * `otherConvertingShares`: shares of notes and pre-money SAFEs converted in the same financing
   * by earlier calls. Every kind's capitalization counts the first four.
   */
  capitalization: CompanyCapitalizationInput;
  /** Default: none (a conversion of the ledger, the dashboard's preview). */
  poolIncrease?: FinancingPoolIncrease;
  /** The financing's date: notes accrue interest up to it. */
  date: IsoDate;
  /** Price per share of the standard preferred sold in the round. */
  standardPreferredPrice: DecimalInput;
  convertibles: readonly ConvertibleInstrument[];
  /** Keep fractional shares (an LLC's units) instead of rounding each conversion down. */
  fractional?: boolean;
  /**
   * Round the notes' and pre-money SAFEs' conversion prices half up to this many places before
   * their shares are counted, as a term sheet rounds its price ($1.1144). Post-money SAFEs' prices
   * keep full precision: theirs is solved together with their own shares. Default: full precision.
   */
  priceDecimals?: number;
}

export interface FinancingConversion extends Conversion {
  key: string;
  /** What converted: a SAFE's purchase amount, a note's principal plus all interest owed. */
  conversionAmount: Decimal;
}

/**
 * The convertibles converting in one priced round, each by its kind:
 * - a note (`convertNote`) and a pre-money SAFE (`convertPreMoneySafe`) each on the
 *   capitalization alone (issued as converted, outstanding and promised options, the pool, and
 *   the part of `poolIncrease` its terms count): neither counts the other convertibles;
 * - the post-money SAFEs together (`convertPostMoneySafes`: each one's Company Capitalization
 *   counts all of their shares), over the capitalization plus the shares of the notes and
 *   pre-money SAFEs converted here and in `otherConvertingShares` (those first, as the YC guide
 *   does), without the pool increase.
 * The conversions of the ledger, the dashboard's preview and the round model (`modelRound`, at
 * its solved price and pool increase) are all this function.
 *
 * Answers in the order of `convertibles`. The library's refusals (a capitalization of zero, caps
 * that would own the whole company ...) throw CapMathError.
 */
export function convertInFinancing(input: FinancingInput): FinancingConversion[] {
  uniqueKeys(
    'convertibles',
    input.convertibles.map((c) => c.key),
  );
  const { capitalization: cap, fractional } = input;
  const base = nonNegative('issuedShares', cap.issuedShares)
    .plus(nonNegative('outstandingOptions', cap.outstandingOptions ?? 0))
    .plus(nonNegative('promisedOptions', cap.promisedOptions ?? 0))
    .plus(nonNegative('unissuedOptionPool', cap.unissuedOptionPool ?? 0));
  const increase = nonNegative('poolIncrease.shares', input.poolIncrease?.shares ?? 0);
  const noteBase = input.poolIncrease?.inPreMoney ? base.plus(increase) : base;
  const result = new Map<string, FinancingConversion>();
  let converting = nonNegative('otherConvertingShares', cap.otherConvertingShares ?? 0);
  for (const c of input.convertibles) {
    if (c.kind === 'post_money_safe') continue;
    const conversion =
      c.kind === 'note'
        ? noteConversion(c, noteBase, input)
        : preMoneyConversion(c, base.plus(increase), input);
    result.set(c.key, conversion);
    converting = converting.plus(conversion.shares);
  }
  const postMoney = input.convertibles.filter((c): c is SafeInstrument => {
    return c.kind === 'post_money_safe';
  });
  if (postMoney.length) {
    const { conversions } = convertPostMoneySafes({
      capitalization: { ...cap, otherConvertingShares: converting },
      standardPreferredPrice: input.standardPreferredPrice,
      safes: postMoney.map(({ key, purchaseAmount, valuationCap, discount }) => ({
        key,
        purchaseAmount,
        ...(valuationCap !== undefined && { valuationCap }),
        ...(discount !== undefined && { discount }),
      })),
      fractional,
    });
    const amounts = new Map(postMoney.map((s) => [s.key, s.purchaseAmount]));
    for (const c of conversions) {
      result.set(c.key, { ...c, conversionAmount: new D(amounts.get(c.key)!) });
    }
  }
  return input.convertibles.map((c) => result.get(c.key)!);
}

function preMoneyConversion(
  safe: SafeInstrument,
  base: Decimal,
  input: FinancingInput,
): FinancingConversion {
  const conversion = convertPreMoneySafe({
    purchaseAmount: safe.purchaseAmount,
    preMoneyCapitalization: base,
    standardPreferredPrice: input.standardPreferredPrice,
    fractional: input.fractional,
    priceDecimals: input.priceDecimals,
    ...terms(safe),
  });
  return { key: safe.key, ...conversion, conversionAmount: new D(safe.purchaseAmount) };
}

/**
 * `convertNote` over the span since interest was last settled; interest left unpaid before it
 * joins the amount and converts at the same price.
 */
function noteConversion(
  note: NoteInstrument,
  base: Decimal,
  input: FinancingInput,
): FinancingConversion {
  const converted = convertNote({
    principal: note.principal,
    annualRate: note.annualRate,
    interestType: note.interestType,
    dayCount: note.dayCount,
    compoundingPeriodsPerYear: note.compoundingPeriodsPerYear,
    issueDate: note.interestFrom,
    conversionDate: input.date,
    preMoneyFullyDilutedShares: base,
    standardPreferredPrice: input.standardPreferredPrice,
    fractional: input.fractional,
    priceDecimals: input.priceDecimals,
    ...terms(note),
  });
  const unpaid = nonNegative('unpaidInterest', note.unpaidInterest ?? 0);
  const conversionAmount = converted.conversionAmount.plus(unpaid);
  const exact = conversionAmount.div(converted.conversionPrice);
  return {
    key: note.key,
    conversionPrice: converted.conversionPrice,
    method: converted.method,
    shares: unpaid.isZero() ? converted.shares : input.fractional ? exact : floorToWhole(exact),
    conversionAmount,
  };
}

const terms = ({ valuationCap, discount }: ConvertibleTerms): ConvertibleTerms => ({
  ...(valuationCap !== undefined && { valuationCap }),
  ...(discount !== undefined && { discount }),
});
