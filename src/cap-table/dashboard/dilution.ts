import type Decimal from 'decimal.js';
import {
  convertNote,
  convertPostMoneySafes,
  convertPreMoneySafe,
  toDecimal,
} from '../../../libs/cap-math';
import { interestOwed } from '../ledger/incentive-rules';
import { fractionOf } from '../ledger/incentive-types';
import type { HoldingState } from '../ledger/ledger-state';

const ZERO = toDecimal(0);

export interface DilutionInput {
  issued: Decimal;
  /** Outstanding grants and warrants, by holder. */
  options: Map<string, Decimal>;
  poolAvailable: Decimal;
  /** Active convertible notes and SAFEs. */
  convertibles: HoldingState[];
  /** The latest valuation's price per share: what convertibles convert at (none: not counted). */
  price: string | null;
  asOf: string;
  fractional: boolean;
}

/**
 * The shares convertible notes and SAFEs would become at `price`, by holder: post-money SAFEs
 * by the standard post-money SAFE (Company Capitalization solved with their own shares), pre-money
 * SAFEs and notes on the capitalization before them (issued, outstanding options and the pool);
 * a note converts its outstanding principal plus the interest owed on `asOf`. Without a price
 * nothing converts.
 */
export function asConvertedByHolder(input: DilutionInput): Map<string, Decimal> {
  const result = new Map<string, Decimal>();
  if (!input.price || !toDecimal(input.price).gt(0) || !input.convertibles.length) return result;
  const add = (memberId: string, shares: Decimal) =>
    result.set(memberId, (result.get(memberId) ?? ZERO).plus(shares));
  const outstandingOptions = [...input.options.values()].reduce((a, b) => a.plus(b), ZERO);
  const base = input.issued.plus(outstandingOptions).plus(input.poolAvailable);
  const terms = (h: HoldingState) => ({
    ...(h.terms.valuationCap ? { valuationCap: h.terms.valuationCap } : {}),
    ...(h.terms.discount ? { discount: fractionOf(h.terms.discount) } : {}),
  });

  let otherConverting = ZERO;
  for (const h of input.convertibles) {
    if (h.type === 'convertible_note' && h.principalOutstanding && base.gt(0)) {
      const owed = h.principalOutstanding.plus(interestOwed(h, input.asOf, false));
      if (!owed.gt(0)) continue;
      const c = convertNote({
        principal: owed,
        annualRate: 0,
        interestType: 'simple',
        dayCount: 'actual/365',
        issueDate: input.asOf,
        conversionDate: input.asOf,
        preMoneyFullyDilutedShares: base,
        standardPreferredPrice: input.price,
        fractional: input.fractional,
        ...terms(h),
      });
      add(h.memberId, c.shares);
      otherConverting = otherConverting.plus(c.shares);
    } else if (h.type === 'safe' && h.terms.safeType === 'pre_money' && base.gt(0)) {
      const c = convertPreMoneySafe({
        purchaseAmount: h.terms.amount ?? 0,
        preMoneyCapitalization: base,
        standardPreferredPrice: input.price,
        fractional: input.fractional,
        ...terms(h),
      });
      add(h.memberId, c.shares);
      otherConverting = otherConverting.plus(c.shares);
    }
  }
  const postMoney = input.convertibles.filter(
    (h) => h.type === 'safe' && h.terms.safeType !== 'pre_money',
  );
  if (postMoney.length) {
    const { conversions } = convertPostMoneySafes({
      capitalization: {
        issuedShares: input.issued,
        outstandingOptions,
        unissuedOptionPool: input.poolAvailable,
        otherConvertingShares: otherConverting,
      },
      standardPreferredPrice: input.price,
      safes: postMoney.map((h) => ({
        key: h.id,
        purchaseAmount: h.terms.amount ?? 0,
        ...terms(h),
      })),
      fractional: input.fractional,
    });
    const holderOf = new Map(postMoney.map((h) => [h.id, h.memberId]));
    for (const c of conversions) add(holderOf.get(c.key)!, c.shares);
  }
  return result;
}
