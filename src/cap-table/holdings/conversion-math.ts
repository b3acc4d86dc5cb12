import Decimal from 'decimal.js';
import {
  compareDates,
  convertNote,
  convertPostMoneySafes,
  convertPreMoneySafe,
  toDecimal,
  toDecimalString,
  type ConversionMethod,
} from '../../../libs/cap-math';
import { available, outstanding } from '../ledger/incentive-rules';
import { EXERCISABLE_TYPES, type ConversionRecord, fractionOf } from '../ledger/incentive-types';
import type { HoldingState, LedgerState } from '../ledger/ledger-state';
import type { LedgerTransaction } from '../ledger/transaction-types';

/**
 * The numbers of a conversion, from the libs/cap-math conversion functions and the cap table
 * just before the financing.
 */

/** The company's capitalization immediately before a financing (the SAFEs' and notes' base). */
export interface Capitalization {
  /** Issued shares of every class, as converted to common (issued × conversionRatio). */
  issuedShares: Decimal;
  /** Outstanding grants and warrants not expired on the financing date. */
  outstandingOptions: Decimal;
  /** Available (reserved, ungranted) shares of the plans' pools. */
  unissuedOptionPool: Decimal;
}

export const totalOf = (c: Capitalization) =>
  c.issuedShares.plus(c.outstandingOptions).plus(c.unissuedOptionPool);

/**
 * The log as the capitalization before a financing reads it (through replayAsOf, up to the day
 * before): a plan without a board approval date is recorded with the day it was entered, which
 * says nothing of when it started, so it and its pools hold for all of history, like the classes
 * they reserve from; otherwise grants dated before their plan was entered would drop out of the
 * capitalization. A plan with a board approval date counts from that date.
 */
export function capitalizationLog(log: LedgerTransaction[]): LedgerTransaction[] {
  const undated = new Set(
    log.flatMap((tx) =>
      tx.type === 'STOCK_PLAN_CREATED' && !tx.payload.plan.boardApprovalDate
        ? [tx.payload.plan.id]
        : [],
    ),
  );
  return log.map((tx) =>
    (tx.type === 'STOCK_PLAN_CREATED' && undated.has(tx.payload.plan.id)) ||
    (tx.type === 'STOCK_PLAN_POOL_CREATED' && undated.has(tx.payload.pool.planId))
      ? { ...tx, effectiveDate: BEGINNING }
      : tx,
  );
}

const BEGINNING = '0001-01-01';

/** The capitalization in `state` (the cap table as of the day before `date`). */
export function capitalizationOf(state: LedgerState, date: string): Capitalization {
  const zero = toDecimal(0);
  let issuedShares = zero;
  for (const s of state.securities.values()) {
    if (!s.deleted) issuedShares = issuedShares.plus(s.issued.times(s.conversionRatio));
  }
  let outstandingOptions = zero;
  for (const h of state.holdings.values()) {
    const expired = !!h.terms.expirationDate && compareDates(date, h.terms.expirationDate) > 0;
    if (h.status === 'active' && EXERCISABLE_TYPES.has(h.type) && !expired) {
      outstandingOptions = outstandingOptions.plus(outstanding(h));
    }
  }
  let unissuedOptionPool = zero;
  for (const po of state.pools.values()) {
    const plan = state.plans.get(po.planId);
    if (!po.deleted && plan && !plan.deleted)
      unissuedOptionPool = unissuedOptionPool.plus(available(po));
  }
  return { issuedShares, outstandingOptions, unissuedOptionPool };
}

export interface ConversionInput {
  holding: HoldingState;
  date: string;
  pricePerShare: string;
  capitalization: Capitalization;
  /** Post-money SAFEs: the other post-money SAFEs outstanding before the financing. */
  otherPostMoneySafes: HoldingState[];
  /** Post-money SAFEs: shares of notes and pre-money SAFEs already converted in this financing. */
  otherConvertingShares: Decimal;
  /** Keep fractional shares (an LLC's units) instead of rounding down. */
  fractional: boolean;
}

export interface ConversionResult {
  shares: Decimal;
  conversionPrice: Decimal;
  method: ConversionMethod;
  /** What converted: a SAFE's amount, a note's principal outstanding plus interest owed. */
  conversionAmount: Decimal;
}

/**
 * - Post-money SAFE: `convertPostMoneySafes` of this SAFE together with every other post-money
 *   SAFE outstanding before the financing (they all convert in it, and each one's Company
 *   Capitalization counts all of their shares), over the capitalization plus the shares of notes
 *   and pre-money SAFEs converted in the same financing (convert those first, as the YC guide
 *   does). Converting the SAFEs one by one on the same date gives each the share of the joint
 *   solution.
 * - Pre-money SAFE: `convertPreMoneySafe` with the capitalization as its pre-money
 *   capitalization.
 * - Note: `convertNote` on the principal outstanding from the date interest was last settled
 *   (`accruedThrough`: the issue date, or the last repayment), so its interest is exactly what
 *   the reducer owes for that span; interest accrued and left unpaid by an earlier repayment
 *   (`accruedUnpaid`) converts too, at the same price.
 */
export function convert(input: ConversionInput): ConversionResult {
  const { holding: h, pricePerShare, fractional } = input;
  const t = h.terms;
  const terms = {
    ...(t.valuationCap ? { valuationCap: t.valuationCap } : {}),
    ...(t.discount ? { discount: fractionOf(t.discount) } : {}),
  };
  const base = totalOf(input.capitalization);
  if (h.type === 'safe' && t.safeType === 'post_money') {
    const safes = [h, ...input.otherPostMoneySafes].map((s) => ({
      key: s.id,
      purchaseAmount: s.terms.amount!,
      ...(s.terms.valuationCap ? { valuationCap: s.terms.valuationCap } : {}),
      ...(s.terms.discount ? { discount: fractionOf(s.terms.discount) } : {}),
    }));
    const result = convertPostMoneySafes({
      capitalization: {
        issuedShares: input.capitalization.issuedShares,
        outstandingOptions: input.capitalization.outstandingOptions,
        unissuedOptionPool: input.capitalization.unissuedOptionPool,
        otherConvertingShares: input.otherConvertingShares,
      },
      standardPreferredPrice: pricePerShare,
      safes,
      fractional,
    });
    const own = result.conversions.find((x) => x.key === h.id)!;
    return { ...own, conversionAmount: toDecimal(t.amount!) };
  }
  if (h.type === 'safe') {
    const result = convertPreMoneySafe({
      purchaseAmount: t.amount!,
      preMoneyCapitalization: base,
      standardPreferredPrice: pricePerShare,
      fractional,
      ...terms,
    });
    return { ...result, conversionAmount: toDecimal(t.amount!) };
  }
  const note = convertNote({
    principal: h.principalOutstanding!,
    annualRate: fractionOf(t.interestRate) ?? '0',
    interestType: t.interestType ?? 'simple',
    dayCount: t.dayCount ?? 'actual/365',
    issueDate: h.accruedThrough ?? t.issueDate!,
    conversionDate: input.date,
    preMoneyFullyDilutedShares: base,
    standardPreferredPrice: pricePerShare,
    fractional,
    ...terms,
  });
  const conversionAmount = note.conversionAmount.plus(h.accruedUnpaid);
  const shares = h.accruedUnpaid.isZero()
    ? note.shares
    : wholeUnless(fractional, conversionAmount.div(note.conversionPrice));
  return { shares, conversionPrice: note.conversionPrice, method: note.method, conversionAmount };
}

/** As the library rounds: down to whole shares (after absorbing 60-digit division noise). */
const wholeUnless = (fractional: boolean, exact: Decimal) =>
  fractional ? exact : exact.toDecimalPlaces(40, Decimal.ROUND_HALF_UP).floor();

/** The ledger's scale (numeric(38, 10)): prices and amounts are recorded to 10 places. */
const scaled = (d: Decimal) => toDecimalString(d.toDecimalPlaces(10, Decimal.ROUND_HALF_UP));

export function conversionRecord(
  result: ConversionResult,
  fields: {
    date: string;
    shareholdingId: string;
    securityId: string;
    roundPricePerShare: string;
    preMoneyValuation: string | null;
  },
): ConversionRecord {
  return {
    date: fields.date,
    shareholdingId: fields.shareholdingId,
    securityId: fields.securityId,
    // Whole shares already, or an LLC's units cut (down) to the ledger's 10 places.
    shares: toDecimalString(result.shares.toDecimalPlaces(10, Decimal.ROUND_DOWN)),
    conversionPrice: scaled(result.conversionPrice),
    method: result.method,
    conversionAmount: scaled(result.conversionAmount),
    roundPricePerShare: fields.roundPricePerShare,
    preMoneyValuation: fields.preMoneyValuation,
  };
}
