import Decimal from 'decimal.js';
import { DecimalInput } from '../decimal';
import { nonNegative, positive } from '../validate';
import { roundPrice, sharesFor } from './conversion-price';

export interface PriceRoundInput {
  preMoneyValuation: DecimalInput;
  /**
   * Fully diluted shares the pre-money valuation buys: after the safes and notes convert,
   * including any option pool increase the investors require to be in the pre-money.
   */
  preMoneyFullyDilutedShares: DecimalInput;
  investment: DecimalInput;
  /** Round the price per share half up to this many places (term sheets often use 4). */
  priceDecimals?: number;
  /** Issue fractional shares to the new investors instead of rounding down. */
  fractional?: boolean;
}

export interface PricedRound {
  pricePerShare: Decimal;
  /** Investment / price, rounded down: an investor never gets a share it did not pay for. */
  newShares: Decimal;
  /** What the new shares cost at the price: at most the investment. */
  amountInvested: Decimal;
  postMoneyFullyDilutedShares: Decimal;
  /** Pre-money valuation plus the investment, the headline figure. */
  postMoneyValuation: Decimal;
}

/** Price per share = pre-money valuation / pre-money fully diluted shares. */
export function priceRound(input: PriceRoundInput): PricedRound {
  const preMoney = positive('preMoneyValuation', input.preMoneyValuation);
  const shares = positive('preMoneyFullyDilutedShares', input.preMoneyFullyDilutedShares);
  const investment = nonNegative('investment', input.investment);
  const pricePerShare = roundPrice(preMoney.div(shares), input.priceDecimals);
  const newShares = sharesFor(investment.div(pricePerShare), input.fractional);
  return {
    pricePerShare,
    newShares,
    amountInvested: newShares.times(pricePerShare),
    postMoneyFullyDilutedShares: shares.plus(newShares),
    postMoneyValuation: preMoney.plus(investment),
  };
}
