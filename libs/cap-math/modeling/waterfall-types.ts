import Decimal from 'decimal.js';
import { DecimalInput } from '../decimal';

/** A share class as the exit waterfall sees it. */
export interface WaterfallClass {
  key: string;
  /** Shown in descriptions; the key when absent. */
  name?: string;
  /**
   * Common classes take no preference: their shares share the residual pro rata (as
   * `conversionRatio` common shares each, 1 by default); the preference fields are ignored.
   */
  kind: 'common' | 'preferred';
  /** Higher is paid first, as in OCF; equal seniorities are pari passu. Default 0. */
  seniority?: number;
  /** Price per share the class was sold at; required for preferred classes. */
  originalIssuePrice?: DecimalInput;
  /** Preference per share = multiple × original issue price. Default 1. */
  liquidationPreferenceMultiple?: DecimalInput;
  /** Takes its preference and then shares with common as converted. Default false. */
  participating?: boolean;
  /**
   * Participating classes only: the most a share may receive, preference included, as a
   * multiple of the original issue price (3 = 3× OIP). Absent = no cap. Ignored for
   * non-participating classes.
   */
  participationCapMultiple?: DecimalInput;
  /** Common shares per share on conversion. Default 1. */
  conversionRatio?: DecimalInput;
}

export interface WaterfallHolding {
  holderKey: string;
  classKey: string;
  shares: DecimalInput;
}

/** An option or warrant for common shares. */
export interface WaterfallOption {
  key: string;
  holderKey: string;
  /** The shares that take part: vested ones, or all when accelerated (the caller decides). */
  shares: DecimalInput;
  exercisePrice: DecimalInput;
}

export type WaterfallConvertibleKind = 'post-money-safe' | 'pre-money-safe' | 'note';

/** A SAFE or convertible note outstanding at the exit. */
export interface WaterfallConvertible {
  key: string;
  holderKey: string;
  kind: WaterfallConvertibleKind;
  /**
   * The cash-out amount: the SAFE's purchase amount, or the note's principal plus the interest
   * accrued to the exit (the caller computes it, e.g. with `accruedInterest`). A note converts
   * this whole amount.
   */
  amount: DecimalInput;
  /** Valuation cap in money; without one the instrument only takes its cash-out amount. */
  valuationCap?: DecimalInput;
  /**
   * Fraction of the price ("0.2" for 20%), as in `ConvertibleTerms`. Validated, but a
   * discount applies to a financing's price and does not change an exit payout here.
   */
  discount?: DecimalInput;
  /**
   * Where the cash-out amount ranks, on the classes' seniority scale (higher is paid first;
   * equal is pari passu). Default: a SAFE ranks with the most senior preferred class (the YC
   * safe is "on par with Preferred Stock"); a note, being debt, one above every preferred class.
   */
  seniority?: number;
}

export interface WaterfallStructure {
  /** Deducted from the exit value before anyone is paid. Default 0. */
  transactionExpenses?: DecimalInput;
  classes: readonly WaterfallClass[];
  holdings: readonly WaterfallHolding[];
  options?: readonly WaterfallOption[];
  convertibles?: readonly WaterfallConvertible[];
}

export interface WaterfallInput extends WaterfallStructure {
  exitValue: DecimalInput;
}

export interface WaterfallClassResult {
  key: string;
  name: string;
  /** Paid as liquidation preference, in cents. */
  preference: Decimal;
  /** Paid as participation or as common shares (converted or common classes), in cents. */
  participation: Decimal;
  /** A preferred class that takes its as-converted common value instead of its preference. */
  converted: boolean;
  /** preference + participation: what the class's holdings receive, in cents. */
  proceeds: Decimal;
}

export interface WaterfallHolderResult {
  holderKey: string;
  /** In cents: the holder's holdings, options and convertibles. */
  proceeds: Decimal;
  /** Percent (0–100) of the distributable amount, 4 places, summing to exactly 100. */
  percentOfProceeds: Decimal;
}

export interface WaterfallOptionResult {
  key: string;
  holderKey: string;
  /** In the money: the value of a common share is above the exercise price. */
  exercised: boolean;
  /** Net of the exercise price, in cents. */
  proceeds: Decimal;
}

export interface WaterfallConvertibleResult {
  key: string;
  holderKey: string;
  /** Takes the value of its conversion shares instead of its cash-out amount. */
  converted: boolean;
  /** Liquidity price: valuation cap / the capitalization it divides (none without a cap). */
  conversionPrice: Decimal | null;
  /** Common shares it would convert into (fractional, unrounded); 0 without a cap. */
  conversionShares: Decimal;
  /** In cents. */
  proceeds: Decimal;
}

export interface WaterfallResult {
  exitValue: Decimal;
  transactionExpenses: Decimal;
  /** Exit value less transaction expenses (never below 0), rounded half up to the cent. */
  distributable: Decimal;
  /** Value of one common share at this exit (exact, unrounded); 0 until preferences are paid. */
  commonSharePrice: Decimal;
  byClass: WaterfallClassResult[];
  byHolder: WaterfallHolderResult[];
  options: WaterfallOptionResult[];
  convertibles: WaterfallConvertibleResult[];
}

export type WaterfallBreakpointKind =
  'expenses' | 'preference' | 'participation-cap' | 'conversion' | 'options-in-the-money';

/** Something that happens at a breakpoint. */
export interface WaterfallBreakpointEvent {
  kind: WaterfallBreakpointKind;
  description: string;
  classKey?: string;
  convertibleKey?: string;
  /** The options whose exercise price is reached here. */
  optionKeys?: string[];
}

/** One exit value at which some payout changes slope (one entry per exit value). */
export interface WaterfallBreakpoint {
  /** Exact to 40 decimal places (a repeating decimal is cut there, half up). */
  exitValue: Decimal;
  /** The classes whose payout changes slope here, in class order (may be empty). */
  classKeys: string[];
  /** What happens here, in order: expenses, preferences, then by class, option, convertible. */
  events: WaterfallBreakpointEvent[];
}
