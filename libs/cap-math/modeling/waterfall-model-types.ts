import Decimal from 'decimal.js';
import { WaterfallBreakpointEvent } from './waterfall-types';

// The waterfall as payoffs of p, the value of a common share (see `buildWaterfallModel`).

export type PayoffKind = 'common' | 'fixed-or-convert' | 'participating' | 'options';

export interface Instrument {
  kind: PayoffKind;
  /** Common-equivalent shares: how much the payoff grows per unit of p while it does. */
  weight: Decimal;
  /** Liquidation preference or cash-out amount, in total. */
  preference: Decimal;
  /** Capped participating classes: cap less preference, in total. */
  headroom: Decimal | null;
  /** Capped participating classes: the p at which the cap is reached. */
  capAt: Decimal | null;
  /** Above this p the instrument takes its as-converted value instead (null: never). */
  convertAbove: Decimal | null;
  /** Options: the exercise price. */
  strike: Decimal;
}

export interface ModelClass {
  key: string;
  name: string;
  preferred: boolean;
  instrument: number;
  /** Shares held in the class, in units of 10^-holdingScale. */
  units: bigint;
  /** Indices of its holdings in `WaterfallModel.holdings`. */
  holdings: number[];
}

export interface ModelHolding {
  holderIndex: number;
  classIndex: number;
  /** Shares in units of 10^-holdingScale. */
  units: bigint;
}

export interface ModelOption {
  key: string;
  holderIndex: number;
  /** The instrument of all options with this exercise price. */
  instrument: number;
  /** Shares in units of 10^-optionScale. */
  units: bigint;
}

export interface ModelConvertible {
  key: string;
  holderIndex: number;
  instrument: number;
  conversionPrice: Decimal | null;
  conversionShares: Decimal;
}

/** A change of slope of some payoffs at a value of p > 0. */
export interface Kink {
  p: Decimal;
  changes: { instrument: number; delta: Decimal }[];
  events: WaterfallBreakpointEvent[];
}

/** A linear piece of the total payout: from p on, total(p') = total + slope · (p' − p). */
export interface Segment {
  p: Decimal;
  total: Decimal;
  slope: Decimal;
}

/** Preferences and cash-out amounts of one seniority, paid pari passu. */
export interface Tier {
  seniority: number;
  members: number[];
  total: Decimal;
  events: WaterfallBreakpointEvent[];
}

export interface WaterfallModel {
  expenses: Decimal;
  instruments: Instrument[];
  classes: ModelClass[];
  holdings: ModelHolding[];
  holdingScale: number;
  options: ModelOption[];
  optionScale: number;
  convertibles: ModelConvertible[];
  /** Most senior first; only preferences above zero. */
  tiers: Tier[];
  totalPreference: Decimal;
  /** Per-instrument slopes just above p = 0. */
  initialSlopes: Decimal[];
  /** Sorted by p, all p > 0, distinct. */
  kinks: Kink[];
  /** segments[0] starts at p = 0; segments[k] starts at kinks[k - 1].p. */
  segments: Segment[];
  /** Holders in order of first appearance: holdings, options, convertibles. */
  holderKeys: string[];
}
