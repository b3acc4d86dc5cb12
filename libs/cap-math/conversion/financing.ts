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

export interface FinancingInput {
  /**
   * The company immediately before the financing: issued shares with preferred as converted to
   * common, outstanding options, the unissued pool, and `otherConvertingShares`: shares of notes
   * and pre-money SAFEs converted in the same financing by earlier calls.
   */
  capitalization: CompanyCapitalizationInput;
  /** The financing's date: notes accrue interest up to it. */
  date: IsoDate;
  /** Price per share of the standard preferred sold in the round. */
  standardPreferredPrice: DecimalInput;
  convertibles: readonly ConvertibleInstrument[];
  /** Keep fractional shares (an LLC's units) instead of rounding each conversion down. */
  fractional?: boolean;
}

export interface FinancingConversion extends Conversion {
  key: string;
  /** What converted: a SAFE's purchase amount, a note's principal plus all interest owed. */
  conversionAmount: Decimal;
}

/**
 * The convertibles converting in one priced round, each by its kind:
 * - a note (`convertNote`) and a pre-money SAFE (`convertPreMoneySafe`) each on the
 *   capitalization alone (issued as converted, outstanding options, the pool): neither counts
 *   the other convertibles;
 * - the post-money SAFEs together (`convertPostMoneySafes`: each one's Company Capitalization
 *   counts all of their shares), over the capitalization plus the shares of the notes and
 *   pre-money SAFEs converted here and in `otherConvertingShares` (those first, as the YC guide
 *   does).
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
  const result = new Map<string, FinancingConversion>();
  let converting = nonNegative('otherConvertingShares', cap.otherConvertingShares ?? 0);
  for (const c of input.convertibles) {
    if (c.kind === 'post_money_safe') continue;
    const conversion =
      c.kind === 'note' ? noteConversion(c, base, input) : preMoneyConversion(c, base, input);
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
