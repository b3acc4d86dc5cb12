import Decimal from 'decimal.js';
import { D, floorToWhole } from '../decimal';
import { CapMathError } from '../errors';
import { inRange, integerAtLeast, positive } from '../validate';
import {
  Conversion,
  ConversionMethod,
  ConversionOptions,
  ConvertibleTerms,
} from './conversion-types';

export interface PriceCandidate {
  method: ConversionMethod;
  price: Decimal;
}

/** Parsed cap and discount: the cap must be positive, the discount in [0, 1). */
export function parseTerms(terms: ConvertibleTerms): { cap?: Decimal; discount: Decimal } {
  const cap =
    terms.valuationCap === undefined ? undefined : positive('valuationCap', terms.valuationCap);
  const discount = inRange('discount', terms.discount ?? 0, 0, 1);
  if (discount.equals(1)) {
    throw new CapMathError(
      'discount must be below 1 (a 100% discount gives a zero price)',
      'discount',
    );
  }
  return { cap, discount };
}

/** The round's own terms for this holder: the round price, or the discounted round price. */
export function roundPriceCandidate(standardPrice: Decimal, discount: Decimal): PriceCandidate {
  return discount.isZero()
    ? { method: 'price', price: standardPrice }
    : { method: 'discount', price: standardPrice.times(new D(1).minus(discount)) };
}

export function roundPrice(price: Decimal, priceDecimals: number | undefined): Decimal {
  if (priceDecimals === undefined) {
    return price;
  }
  integerAtLeast('priceDecimals', priceDecimals, 0);
  const rounded = price.toDecimalPlaces(priceDecimals, Decimal.ROUND_HALF_UP);
  if (rounded.isZero()) {
    throw new CapMathError(
      `Price ${price.toFixed()} rounds to zero at ${priceDecimals} places`,
      'priceDecimals',
    );
  }
  return rounded;
}

/**
 * Converts at the lowest candidate price (the holder's best deal). On a tie the earlier
 * candidate wins, and callers list the round's terms before the cap, so a cap that merely
 * equals the round price is not reported as the reason for the conversion.
 */
export function convertAtLowestPrice(
  amount: Decimal,
  candidates: readonly PriceCandidate[],
  options: ConversionOptions,
): Conversion {
  const rounded = candidates.map((c) => ({
    ...c,
    price: roundPrice(c.price, options.priceDecimals),
  }));
  const best = rounded.reduce((a, b) => (b.price.lessThan(a.price) ? b : a));
  return {
    conversionPrice: best.price,
    shares: sharesFor(amount.div(best.price), options.fractional),
    method: best.method,
  };
}

export function sharesFor(exactShares: Decimal, fractional: boolean | undefined): Decimal {
  return fractional ? exactShares : floorToWhole(exactShares);
}
