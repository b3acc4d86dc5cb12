import Decimal from 'decimal.js';
import { IsoDate } from '../dates';
import { DayCountConvention } from '../day-count';
import { DecimalInput } from '../decimal';
import { InterestType } from '../interest';

/** The three kinds of convertible a priced round converts. */
export type RoundConvertibleType = 'post_money_safe' | 'pre_money_safe' | 'note';

/**
 * Why a convertible got its price: its valuation cap, the round price less its discount, the
 * round price itself ('round'), or the round price because it is an MFN safe with no better
 * terms of its own ('mfn').
 */
export type ConversionBasis = 'cap' | 'discount' | 'round' | 'mfn';

export type RoundRowKind = 'holder' | 'investor' | 'pool';

/** An existing holder, as converted to common. */
export interface RoundHolder {
  key: string;
  name?: string;
  /** Issued shares, as converted to common. */
  shares: DecimalInput;
  /** Outstanding (granted, unexercised) options and warrants, as the shares they are for. */
  options?: DecimalInput;
}

export interface RoundNoteInterest {
  /** Annual rate as a fraction: "0.06" for 6% (as `accruedInterest` takes it). */
  annualRate: DecimalInput;
  interestType: InterestType;
  dayCount: DayCountConvention;
  /**
   * The date interest starts accruing: the note's issue date, or the date through which
   * interest was last paid or accrued (see `unpaidInterest`). Interest accrues to closingDate.
   */
  issueDate: IsoDate;
  /** For compound interest: periods a year (default 1). */
  compoundingPeriodsPerYear?: number;
}

export interface RoundConvertible {
  key: string;
  /** The holder the conversion shares go to (a holder row is added if it is not in `holders`). */
  holderKey: string;
  type: RoundConvertibleType;
  /** SAFE purchase amount; note principal outstanding. */
  amount: DecimalInput;
  /** Valuation cap in money (post-money for post-money SAFEs); absent for uncapped. */
  valuationCap?: DecimalInput;
  /** A fraction off the round price, as in OCF: "0.2" for 20%. Below 1. */
  discount?: DecimalInput;
  /** Most-favoured-nation SAFE: only changes the reported basis ('mfn' instead of 'round'). */
  mfn?: boolean;
  /** Notes only: interest accrued from `interest.issueDate` to the closing date. */
  interest?: RoundNoteInterest;
  /** Notes only: interest accrued before `interest.issueDate` and not paid; it converts too. */
  unpaidInterest?: DecimalInput;
}

export interface RoundInvestment {
  name: string;
  amount: DecimalInput;
}

/**
 * The option pool top-up. `postMoneyPercent` (0 ≤ p < 100): the whole unallocated pool after
 * the round (available + increase) is that percent of the post-money fully diluted shares;
 * the increase is max(0, target − poolAvailable). `increase`: a fixed number of new pool shares,
 * as some term sheets (and the YC guide's examples) state it.
 */
export type OptionPoolTopUp = { postMoneyPercent: DecimalInput } | { increase: DecimalInput };

export interface RoundModelInput {
  holders: readonly RoundHolder[];
  /** Unallocated (reserved, ungranted) pool before the round. */
  poolAvailable: DecimalInput;
  convertibles?: readonly RoundConvertible[];
  preMoneyValuation: DecimalInput;
  investments: readonly RoundInvestment[];
  optionPoolTopUp?: OptionPoolTopUp;
  /** The pool increase is in the pre-money fully diluted shares (dilutes only existing holders). Default true. */
  poolIncludedInPreMoney?: boolean;
  /** Convert the SAFEs (pre- and post-money) in the round. Default true. */
  convertSafes?: boolean;
  /** Convert the notes in the round. Default true. */
  convertNotes?: boolean;
  /** Date of the closing: notes accrue interest to it. */
  closingDate: IsoDate;
  /** Keep fractional shares (LLC units) instead of rounding down. Default false. */
  fractional?: boolean;
  /**
   * Round the price per share half up to this many places, as term sheets do ($1.1144); the
   * pre-money SAFE and note conversion prices are rounded the same way. Default: full precision.
   */
  priceDecimals?: number;
}

export interface RoundConversion {
  key: string;
  holderKey: string;
  type: RoundConvertibleType;
  /** What converts: the SAFE purchase amount, or principal + unpaid + accrued interest. */
  amount: Decimal;
  /** Notes: interest accrued from `interest.issueDate` to the closing date; SAFEs: 0. */
  accruedInterest: Decimal;
  shares: Decimal;
  pricePerShare: Decimal;
  basis: ConversionBasis;
}

export interface RoundInvestor {
  name: string;
  amount: Decimal;
  /** amount / price, rounded down (unless fractional). */
  shares: Decimal;
}

export interface RoundHolderRow {
  /** The holder's key; the investor's name; `POOL_ROW_KEY` for the pool. */
  key: string;
  name?: string;
  kind: RoundRowKind;
  /** Holders: shares + options; investors: 0; pool: poolAvailable. */
  sharesBefore: Decimal;
  /** Holders: before + conversion shares; investors: their new shares; pool: available + increase. */
  sharesAfter: Decimal;
  /** Of issued + options + pool before the round (convertibles not counted); 4 places. */
  fullyDilutedPercentBefore: Decimal;
  /** Of the post-money fully diluted shares; 4 places. */
  fullyDilutedPercentAfter: Decimal;
}

export interface RoundModel {
  pricePerShare: Decimal;
  /** Issued + options + pool + the increase when in the pre-money + conversion shares. */
  preMoneyFullyDilutedShares: Decimal;
  /** Pre-money fully diluted + new investors' shares + the increase when not in the pre-money. */
  postMoneyFullyDilutedShares: Decimal;
  preMoneyValuation: Decimal;
  /** preMoneyValuation + newMoney. */
  postMoneyValuation: Decimal;
  /** Sum of the investments. */
  newMoney: Decimal;
  poolIncrease: Decimal;
  conversions: RoundConversion[];
  investors: RoundInvestor[];
  byHolder: RoundHolderRow[];
}
