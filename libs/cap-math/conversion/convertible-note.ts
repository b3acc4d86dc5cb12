import Decimal from 'decimal.js';
import { DecimalInput } from '../decimal';
import { IsoDate } from '../dates';
import { DayCountConvention } from '../day-count';
import { accruedInterest, InterestType } from '../interest';
import { positive } from '../validate';
import {
  convertAtLowestPrice,
  parseTerms,
  PriceCandidate,
  roundPriceCandidate,
} from './conversion-price';
import { Conversion, ConversionOptions, ConvertibleTerms } from './conversion-types';

export interface ConvertibleNoteInput extends ConvertibleTerms, ConversionOptions {
  principal: DecimalInput;
  /** Annual interest rate as a fraction: "0.06" for 6%. */
  annualRate: DecimalInput;
  interestType: InterestType;
  dayCount: DayCountConvention;
  compoundingPeriodsPerYear?: number;
  issueDate: IsoDate;
  /** Date of the financing the note converts in; interest accrues up to it. */
  conversionDate: IsoDate;
  /** Fully diluted shares before the round, the denominator of the cap price. */
  preMoneyFullyDilutedShares: DecimalInput;
  /** Price per share of the standard preferred sold in the round. */
  standardPreferredPrice: DecimalInput;
}

export interface NoteConversion extends Conversion {
  accruedInterest: Decimal;
  /** Principal plus accrued interest: what converts. */
  conversionAmount: Decimal;
}

/**
 * A convertible note converting in a priced round: principal plus interest accrued to the
 * conversion date, at the lower of valuation cap / pre-money fully diluted shares and the
 * round price less the discount.
 */
export function convertNote(input: ConvertibleNoteInput): NoteConversion {
  const principal = positive('principal', input.principal);
  const fullyDiluted = positive('preMoneyFullyDilutedShares', input.preMoneyFullyDilutedShares);
  const price = positive('standardPreferredPrice', input.standardPreferredPrice);
  const { cap, discount } = parseTerms(input);
  const interest = accruedInterest({
    principal,
    annualRate: input.annualRate,
    interestType: input.interestType,
    dayCount: input.dayCount,
    compoundingPeriodsPerYear: input.compoundingPeriodsPerYear,
    startDate: input.issueDate,
    endDate: input.conversionDate,
  });
  const conversionAmount = principal.plus(interest);
  const candidates: PriceCandidate[] = [roundPriceCandidate(price, discount)];
  if (cap) {
    candidates.push({ method: 'cap', price: cap.div(fullyDiluted) });
  }
  return {
    ...convertAtLowestPrice(conversionAmount, candidates, input),
    accruedInterest: interest,
    conversionAmount,
  };
}
