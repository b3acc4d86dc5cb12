import { DecimalInput } from '../decimal';
import { positive } from '../validate';
import {
  convertAtLowestPrice,
  parseTerms,
  PriceCandidate,
  roundPriceCandidate,
} from './conversion-price';
import { Conversion, ConversionOptions, ConvertibleTerms } from './conversion-types';

export interface PreMoneySafeInput extends ConvertibleTerms, ConversionOptions {
  purchaseAmount: DecimalInput;
  /**
   * The original (pre-money) safe's capitalization: fully diluted shares immediately before
   * the round, including the option pool and any pool increase made for the round, but
   * excluding the safes, notes and the new money converting or invested in it.
   */
  preMoneyCapitalization: DecimalInput;
  /** Price per share of the standard preferred sold in the round. */
  standardPreferredPrice: DecimalInput;
}

/**
 * The original YC safe (2013-2018): converts at the lower of cap / pre-money capitalization
 * and the round price less the discount. Each pre-money safe converts on its own: the other
 * safes are not in its capitalization.
 */
export function convertPreMoneySafe(input: PreMoneySafeInput): Conversion {
  const amount = positive('purchaseAmount', input.purchaseAmount);
  const capitalization = positive('preMoneyCapitalization', input.preMoneyCapitalization);
  const price = positive('standardPreferredPrice', input.standardPreferredPrice);
  const { cap, discount } = parseTerms(input);
  const candidates: PriceCandidate[] = [roundPriceCandidate(price, discount)];
  if (cap) {
    candidates.push({ method: 'cap', price: cap.div(capitalization) });
  }
  return convertAtLowestPrice(amount, candidates, input);
}
