import Decimal from 'decimal.js';
import { D, DecimalInput, toDecimalString } from '../decimal';
import { CapMathError } from '../errors';
import { inRange, nonNegative, positive, uniqueKeys } from '../validate';
import { fromUnits, pow10, unitsText } from './waterfall-cents';
import {
  WaterfallBreakpointEvent,
  WaterfallConvertibleKind,
  WaterfallStructure,
} from './waterfall-types';

/**
 * The exit waterfall as a function of one number, p: the value of a common share. Every
 * security's payout is a non-decreasing, continuous, piecewise-linear function of p (its
 * "payoff"), and the payouts at an exit are those at the p where they add up to the
 * distributable amount. This file turns the input into that description; `waterfall-solve.ts`
 * evaluates it.
 *
 * Payoffs, for n shares (or the shares an instrument stands for):
 * - common:                      w·p, where w = n × conversion ratio
 * - non-participating preferred: P while p ≤ P / w, then w·p (converted); P = n × multiple × OIP
 * - participating preferred:     P + w·p; with a cap, P + min(w·p, H) while p ≤ (P + H) / w, then
 *                                w·p (converted), where H = n × (cap − multiple) × OIP
 * - options (one instrument per exercise price K, n = their shares): n × max(p − K, 0)
 * - SAFE / note with a cap:      its amount A while p ≤ its liquidity price, then its conversion
 *                                shares × p; without a cap: A
 */
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

const ZERO = new D(0);
const CONVERTIBLE_KINDS: readonly WaterfallConvertibleKind[] = [
  'post-money-safe',
  'pre-money-safe',
  'note',
];

/** Runs `read`, prefixing the field's name to an error that does not name it yet. */
export function named<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof CapMathError && !error.message.startsWith(field)) {
      throw new CapMathError(`${field}: ${error.message}`);
    }
    throw error;
  }
}

function requireKey(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new CapMathError(`${name} must be a non-empty string`);
  }
  return value;
}

function seniorityOf(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new CapMathError(`${field} must be a whole number (got ${String(value)})`);
  }
  return value;
}

function money(value: Decimal): string {
  return toDecimalString(value.toDecimalPlaces(6, Decimal.ROUND_HALF_UP));
}

/** A non-negative quantity as an exact integer count of 10^-scale. */
interface Units {
  units: bigint;
  scale: number;
}

const PLAIN_NON_NEGATIVE = /^\+?(?:(\d+)(?:\.(\d+))?|\.(\d+))$/;

/**
 * Share counts and exercise prices are read straight into integers: tens of thousands of
 * holdings cost no 60-digit decimal operations. Anything but plain non-negative text or a safe
 * integer goes through the common validation (so the same inputs are accepted and refused,
 * with the same messages, as by `nonNegative`).
 */
function quantity(field: string, value: DecimalInput): Units {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return { units: BigInt(value), scale: 0 };
  }
  let match = typeof value === 'string' ? PLAIN_NON_NEGATIVE.exec(value) : null;
  if (!match) {
    const text = toDecimalString(named(field, () => nonNegative(field, value)));
    match = PLAIN_NON_NEGATIVE.exec(text)!;
  }
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  return { units: BigInt((match[1] ?? '') + fraction || '0'), scale: fraction.length };
}

const rescale = (q: Units, scale: number): bigint => q.units * pow10(scale - q.scale);

interface RawKink {
  p: Decimal;
  instrument: number;
  delta: Decimal;
  event?: WaterfallBreakpointEvent;
}

export function buildWaterfallModel(input: WaterfallStructure): WaterfallModel {
  const expenses = named('transactionExpenses', () =>
    nonNegative('transactionExpenses', input.transactionExpenses ?? 0),
  );
  const classesIn = input.classes ?? [];
  const holdingsIn = input.holdings ?? [];
  const optionsIn = input.options ?? [];
  const convertiblesIn = input.convertibles ?? [];
  classesIn.forEach((c, i) => requireKey(`classes[${i}].key`, c.key));
  uniqueKeys(
    'classes',
    classesIn.map((c) => c.key),
  );
  optionsIn.forEach((o, i) => requireKey(`options[${i}].key`, o.key));
  uniqueKeys(
    'options',
    optionsIn.map((o) => o.key),
  );
  convertiblesIn.forEach((c, i) => requireKey(`convertibles[${i}].key`, c.key));
  uniqueKeys(
    'convertibles',
    convertiblesIn.map((c) => c.key),
  );

  const holderKeys: string[] = [];
  const holderIndexOf = new Map<string, number>();
  const holder = (name: string, value: unknown): number => {
    let index = holderIndexOf.get(value as string);
    if (index === undefined) {
      const key = requireKey(name, value);
      index = holderKeys.length;
      holderIndexOf.set(key, index);
      holderKeys.push(key);
    }
    return index;
  };

  // Holdings: exact integers at the largest scale any of them uses, summed per class.
  const classIndexOf = new Map<string, number>();
  classesIn.forEach((c, i) => classIndexOf.set(c.key, i));
  let holdingScale = 0;
  const parsedHoldings = holdingsIn.map((h, i) => {
    const holderIndex = holder(`holdings[${i}].holderKey`, h.holderKey);
    const classIndex = classIndexOf.get(h.classKey);
    if (classIndex === undefined) {
      throw new CapMathError(`holdings[${i}].classKey: unknown class "${String(h.classKey)}"`);
    }
    const shares = quantity(`holdings[${i}].shares`, h.shares);
    if (shares.scale > holdingScale) holdingScale = shares.scale;
    return { holderIndex, classIndex, shares };
  });
  const classUnits = classesIn.map(() => 0n);
  const classHoldings: number[][] = classesIn.map(() => []);
  const holdings: ModelHolding[] = parsedHoldings.map((h, i) => {
    const units = rescale(h.shares, holdingScale);
    classUnits[h.classIndex] += units;
    classHoldings[h.classIndex].push(i);
    return { holderIndex: h.holderIndex, classIndex: h.classIndex, units };
  });

  const instruments: Instrument[] = [];
  const rawKinks: RawKink[] = [];
  const tierMembers = new Map<number, { members: number[]; events: WaterfallBreakpointEvent[] }>();
  const addToTier = (seniority: number, instrument: number, event: WaterfallBreakpointEvent) => {
    const tier = tierMembers.get(seniority) ?? { members: [], events: [] };
    tier.members.push(instrument);
    tier.events.push(event);
    tierMembers.set(seniority, tier);
  };
  const addInstrument = (i: Partial<Instrument> & Pick<Instrument, 'kind' | 'weight'>) => {
    instruments.push({
      preference: ZERO,
      headroom: null,
      capAt: null,
      convertAbove: null,
      strike: ZERO,
      ...i,
    });
    return instruments.length - 1;
  };

  let mostSeniorPreferred: number | undefined;
  let capitalStock = ZERO;
  const classes: ModelClass[] = classesIn.map((c, i) => {
    const field = (f: string) => `${f} of class "${c.key}"`;
    if (c.kind !== 'common' && c.kind !== 'preferred') {
      throw new CapMathError(`${field('kind')} must be "common" or "preferred"`);
    }
    const name = c.name ?? c.key;
    const ratio =
      c.conversionRatio === undefined
        ? new D(1)
        : named(field('conversionRatio'), () =>
            positive(field('conversionRatio'), c.conversionRatio!),
          );
    const n = fromUnits(classUnits[i], holdingScale);
    const weight = n.times(ratio);
    capitalStock = capitalStock.plus(weight);
    const modelClass = (preferred: boolean, instrument: number): ModelClass => ({
      key: c.key,
      name,
      preferred,
      instrument,
      units: classUnits[i],
      holdings: classHoldings[i],
    });
    if (c.kind === 'common') {
      const instrument = addInstrument({ kind: 'common', weight });
      if (!weight.isZero()) rawKinks.push({ p: ZERO, instrument, delta: weight });
      return modelClass(false, instrument);
    }

    const seniority = seniorityOf(field('seniority'), c.seniority, 0);
    if (c.participating !== undefined && typeof c.participating !== 'boolean') {
      throw new CapMathError(`${field('participating')} must be true or false`);
    }
    if (c.originalIssuePrice === undefined) {
      throw new CapMathError(`${field('originalIssuePrice')} is required for a preferred class`);
    }
    mostSeniorPreferred = Math.max(mostSeniorPreferred ?? seniority, seniority);
    const issuePrice = named(field('originalIssuePrice'), () =>
      nonNegative(field('originalIssuePrice'), c.originalIssuePrice!),
    );
    const multiple = named(field('liquidationPreferenceMultiple'), () =>
      nonNegative(field('liquidationPreferenceMultiple'), c.liquidationPreferenceMultiple ?? 1),
    );
    const perShare = multiple.times(issuePrice);
    const preference = perShare.times(n);
    let instrument: number;
    if (!c.participating) {
      // Converting pays more once w·p > P, i.e. p > preference per share / ratio.
      const convertAbove = perShare.div(ratio);
      instrument = addInstrument({ kind: 'fixed-or-convert', weight, preference, convertAbove });
      if (!weight.isZero()) {
        rawKinks.push({
          p: convertAbove,
          instrument,
          delta: weight,
          event: {
            kind: 'conversion',
            classKey: c.key,
            description: `${name} converts to common: its as-converted value passes its preference of ${money(perShare)} per share`,
          },
        });
      }
    } else if (c.participationCapMultiple === undefined) {
      instrument = addInstrument({ kind: 'participating', weight, preference });
      if (!weight.isZero()) rawKinks.push({ p: ZERO, instrument, delta: weight });
    } else {
      const capMultiple = named(field('participationCapMultiple'), () =>
        positive(field('participationCapMultiple'), c.participationCapMultiple!),
      );
      if (capMultiple.lessThan(multiple)) {
        throw new CapMathError(
          `${field('participationCapMultiple')} (${toDecimalString(capMultiple)}) must be at least ` +
            `its liquidationPreferenceMultiple (${toDecimalString(multiple)}): the cap includes the preference`,
        );
      }
      const capPerShare = capMultiple.times(issuePrice);
      const capAt = capPerShare.minus(perShare).div(ratio);
      const convertAbove = capPerShare.div(ratio);
      instrument = addInstrument({
        kind: 'participating',
        weight,
        preference,
        headroom: capPerShare.minus(perShare).times(n),
        capAt,
        convertAbove,
      });
      if (!weight.isZero()) {
        rawKinks.push({ p: ZERO, instrument, delta: weight });
        rawKinks.push({
          p: capAt,
          instrument,
          delta: weight.negated(),
          event: {
            kind: 'participation-cap',
            classKey: c.key,
            description: `${name} reaches its participation cap of ${money(capPerShare)} per share`,
          },
        });
        rawKinks.push({
          p: convertAbove,
          instrument,
          delta: weight,
          event: {
            kind: 'conversion',
            classKey: c.key,
            description: `${name} converts to common: its as-converted value passes its cap of ${money(capPerShare)} per share`,
          },
        });
      }
    }
    if (!preference.isZero()) {
      addToTier(seniority, instrument, {
        kind: 'preference',
        classKey: c.key,
        description: `${name}: liquidation preference of ${money(preference)} paid in full`,
      });
    }
    return modelClass(true, instrument);
  });

  // Options: one instrument per exercise price, whatever its number of grants.
  let optionScale = 0;
  const strikeGroups = new Map<string, { strike: Units; keys: string[]; members: number[] }>();
  const parsedOptions = optionsIn.map((o, i) => {
    const holderIndex = holder(`options[${i}].holderKey`, o.holderKey);
    const shares = quantity(`shares of option "${o.key}"`, o.shares);
    const strike = quantity(`exercisePrice of option "${o.key}"`, o.exercisePrice);
    if (shares.scale > optionScale) optionScale = shares.scale;
    const text = unitsText(strike.units, strike.scale);
    let group = strikeGroups.get(text);
    if (!group) {
      group = { strike, keys: [], members: [] };
      strikeGroups.set(text, group);
    }
    group.members.push(i);
    if (shares.units > 0n) group.keys.push(o.key);
    return { key: o.key, holderIndex, shares };
  });
  const options: ModelOption[] = parsedOptions.map((o) => ({
    key: o.key,
    holderIndex: o.holderIndex,
    instrument: -1,
    units: rescale(o.shares, optionScale),
  }));
  let optionUnits = 0n;
  for (const group of strikeGroups.values()) {
    let units = 0n;
    for (const m of group.members) units += options[m].units;
    optionUnits += units;
    const weight = fromUnits(units, optionScale);
    const text = unitsText(group.strike.units, group.strike.scale);
    const strike = new D(text);
    const instrument = addInstrument({ kind: 'options', weight, strike });
    for (const m of group.members) options[m].instrument = instrument;
    if (units > 0n) {
      rawKinks.push({
        p: strike,
        instrument,
        delta: weight,
        event: {
          kind: 'options-in-the-money',
          description: `Options with an exercise price of ${text} come into the money`,
          optionKeys: group.keys,
        },
      });
    }
  }

  const parsed = buildConvertibles(
    convertiblesIn,
    capitalStock.plus(fromUnits(optionUnits, optionScale)),
    holder,
  );
  const safeSeniority = mostSeniorPreferred ?? 0;
  const convertibles: ModelConvertible[] = parsed.map((c, i) => {
    const seniority = seniorityOf(
      `seniority of convertible "${c.key}"`,
      convertiblesIn[i].seniority,
      c.kind === 'note' ? safeSeniority + 1 : safeSeniority,
    );
    const instrument = addInstrument({
      kind: 'fixed-or-convert',
      weight: c.conversionShares,
      preference: c.amount,
      convertAbove: c.conversionPrice,
    });
    if (c.conversionPrice && !c.conversionShares.isZero()) {
      rawKinks.push({
        p: c.conversionPrice,
        instrument,
        delta: c.conversionShares,
        event: {
          kind: 'conversion',
          convertibleKey: c.key,
          description: `${c.key} converts: a common share is worth more than its liquidity price of ${money(c.conversionPrice)}`,
        },
      });
    }
    if (!c.amount.isZero()) {
      addToTier(seniority, instrument, {
        kind: 'preference',
        convertibleKey: c.key,
        description: `${c.key}: cash-out amount of ${money(c.amount)} paid in full`,
      });
    }
    return {
      key: c.key,
      holderIndex: c.holderIndex,
      instrument,
      conversionPrice: c.conversionPrice,
      conversionShares: c.conversionShares,
    };
  });

  const tiers: Tier[] = [...tierMembers.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([seniority, t]) => ({
      seniority,
      members: t.members,
      events: t.events,
      total: t.members.reduce((acc, m) => acc.plus(instruments[m].preference), ZERO),
    }));
  const totalPreference = tiers.reduce((acc, t) => acc.plus(t.total), ZERO);
  const { initialSlopes, kinks } = groupKinks(instruments.length, rawKinks);
  const segments = buildSegments(totalPreference, initialSlopes, kinks);

  return {
    expenses,
    instruments,
    classes,
    holdings,
    holdingScale,
    options,
    optionScale,
    convertibles,
    tiers,
    totalPreference,
    initialSlopes,
    kinks,
    segments,
    holderKeys,
  };
}

interface ParsedConvertible {
  key: string;
  holderIndex: number;
  kind: WaterfallConvertibleKind;
  amount: Decimal;
  conversionPrice: Decimal | null;
  conversionShares: Decimal;
}

/**
 * Conversion shares in a liquidity event, by the instruments' own capitalization rules,
 * on the capital stock as converted plus the options given (the input's options are the
 * ones outstanding at the exit; there is no unissued pool in an exit):
 * - pre-money SAFE, note: price = cap / that capitalization;
 * - post-money SAFE: price = cap / Liquidity Capitalization, which counts the post-money
 *   SAFEs' own conversion shares (and those of the pre-money SAFEs and notes), solved in closed
 *   form: L = (base + other converting shares) / (1 − Σ amount / cap), so each post-money SAFE
 *   converts into exactly amount / cap of L.
 * Every capped instrument counts in the capitalization whether it converts or cashes out, a
 * simplification of the YC definition (which leaves out safes taking their cash-out amount):
 * the conversion shares, and so each instrument's choice, do not depend on the others' choices.
 */
function buildConvertibles(
  convertiblesIn: NonNullable<WaterfallStructure['convertibles']>,
  capitalization: Decimal,
  holder: (name: string, value: unknown) => number,
): ParsedConvertible[] {
  const parsed = convertiblesIn.map((c, i) => {
    const field = (f: string) => `${f} of convertible "${c.key}"`;
    const holderIndex = holder(`convertibles[${i}].holderKey`, c.holderKey);
    if (!CONVERTIBLE_KINDS.includes(c.kind)) {
      throw new CapMathError(`${field('kind')} must be one of ${CONVERTIBLE_KINDS.join(', ')}`);
    }
    const amount = named(field('amount'), () => nonNegative(field('amount'), c.amount));
    const cap =
      c.valuationCap === undefined || c.valuationCap === null
        ? null
        : named(field('valuationCap'), () => positive(field('valuationCap'), c.valuationCap!));
    if (c.discount !== undefined && c.discount !== null) {
      const discount = named(field('discount'), () =>
        inRange(field('discount'), c.discount!, 0, 1),
      );
      if (discount.equals(1)) {
        throw new CapMathError(`${field('discount')} must be below 1 (a fraction: 0.2 is 20%)`);
      }
    }
    return { key: c.key, holderIndex, kind: c.kind, amount, cap };
  });
  if (capitalization.isZero()) {
    // No shares to convert into: every instrument takes its cash-out amount.
    return parsed.map((c) => ({ ...c, conversionPrice: null, conversionShares: ZERO }));
  }
  let otherConverting = ZERO;
  let capFractions = ZERO;
  for (const c of parsed) {
    if (!c.cap) continue;
    if (c.kind === 'post-money-safe') {
      capFractions = capFractions.plus(c.amount.div(c.cap));
    } else {
      otherConverting = otherConverting.plus(c.amount.times(capitalization).div(c.cap));
    }
  }
  if (capFractions.greaterThanOrEqualTo(1)) {
    throw new CapMathError(
      'The post-money SAFEs at their caps would own 100% or more of the company (Σ amount / cap ≥ 1)',
    );
  }
  const liquidityCapitalization = capitalization.plus(otherConverting);
  const uncapped = new D(1).minus(capFractions);
  return parsed.map((c) => {
    if (!c.cap) return { ...c, conversionPrice: null, conversionShares: ZERO };
    if (c.kind === 'post-money-safe') {
      return {
        ...c,
        conversionPrice: c.cap.times(uncapped).div(liquidityCapitalization),
        conversionShares: c.amount.times(liquidityCapitalization).div(c.cap.times(uncapped)),
      };
    }
    return {
      ...c,
      conversionPrice: c.cap.div(capitalization),
      conversionShares: c.amount.times(capitalization).div(c.cap),
    };
  });
}

/** Sorts the slope changes by p; those at p = 0 make the initial slopes. */
function groupKinks(count: number, raw: RawKink[]): { initialSlopes: Decimal[]; kinks: Kink[] } {
  const initialSlopes: Decimal[] = new Array(count).fill(ZERO);
  const sorted = raw
    .map((k, order) => ({ k, order }))
    .sort((a, b) => a.k.p.comparedTo(b.k.p) || a.order - b.order)
    .map((x) => x.k);
  const kinks: Kink[] = [];
  for (const k of sorted) {
    if (k.p.isZero()) {
      initialSlopes[k.instrument] = initialSlopes[k.instrument].plus(k.delta);
      continue;
    }
    let last = kinks[kinks.length - 1];
    if (!last || !last.p.equals(k.p)) {
      last = { p: k.p, changes: [], events: [] };
      kinks.push(last);
    }
    last.changes.push({ instrument: k.instrument, delta: k.delta });
    if (k.event) last.events.push(k.event);
  }
  return { initialSlopes, kinks };
}

function buildSegments(totalPreference: Decimal, initial: Decimal[], kinks: Kink[]): Segment[] {
  let slope = initial.reduce((acc, s) => acc.plus(s), ZERO);
  const segments: Segment[] = [{ p: ZERO, total: totalPreference, slope }];
  for (const kink of kinks) {
    const previous = segments[segments.length - 1];
    const total = previous.total.plus(previous.slope.times(kink.p.minus(previous.p)));
    slope = kink.changes.reduce((acc, c) => acc.plus(c.delta), slope);
    segments.push({ p: kink.p, total, slope });
  }
  return segments;
}
