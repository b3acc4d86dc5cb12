import Decimal from 'decimal.js';
import { DecimalInput } from '../decimal';

/**
 * Which price a convertible converted at: its valuation cap, the round price less its
 * discount, or the round price itself (no cap or discount better than the round's terms).
 */
export type ConversionMethod = 'cap' | 'discount' | 'price';

export interface Conversion {
  /** Full precision unless the caller asked for `priceDecimals`. */
  conversionPrice: Decimal;
  /** Rounded down to whole shares unless `fractional`. */
  shares: Decimal;
  method: ConversionMethod;
}

export interface ConvertibleTerms {
  /** Valuation cap in money; absent for an uncapped instrument. */
  valuationCap?: DecimalInput;
  /** Discount as a fraction of the round price: "0.2" for 20% off (a "Discount Rate" of 80%). */
  discount?: DecimalInput;
}

export interface ConversionOptions {
  /** Keep fractional shares instead of rounding down to whole shares. */
  fractional?: boolean;
  /**
   * Round the conversion price half up to this many decimal places before computing shares,
   * as some term sheets and the YC guides do ($0.4545, $1.1144). Default: full precision.
   */
  priceDecimals?: number;
}
