import { DecimalInput, toDecimal, toDecimalString } from '../decimal';
import { ConvertibleTerms } from './conversion-types';

/** A note's or SAFE's terms as an application records them: the discount in percent. */
export interface RecordedTerms {
  valuationCap?: DecimalInput | null;
  /** "20" for 20% off the round price. */
  discountPercent?: DecimalInput | null;
}

/**
 * The cap and discount the conversions take (the discount a fraction: "0.2"), from terms
 * recorded with the discount in percent. An absent or empty cap is no cap; an absent, empty or
 * zero discount is no discount (a zero discount converts at the round price either way).
 */
export function capAndDiscount(terms: RecordedTerms): ConvertibleTerms {
  const { valuationCap, discountPercent } = terms;
  const result: ConvertibleTerms = {};
  if (valuationCap !== undefined && valuationCap !== null && valuationCap !== '') {
    result.valuationCap = valuationCap;
  }
  if (discountPercent !== undefined && discountPercent !== null && discountPercent !== '') {
    const percent = toDecimal(discountPercent);
    if (!percent.isZero()) result.discount = toDecimalString(percent.div(100));
  }
  return result;
}
