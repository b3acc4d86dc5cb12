import Decimal from 'decimal.js';
import { ConvertibleInstrument } from '../conversion/financing';
import { compareDates, IsoDate, parseDate } from '../dates';
import { DAY_COUNT_CONVENTIONS } from '../day-count';
import { D, DecimalInput } from '../decimal';
import { accruedInterest } from '../interest';
import {
  inRange,
  integerAtLeast,
  nonNegative,
  positive,
  uniqueKeys,
  wholeNonNegative,
} from '../validate';
import { InputField, invalid, named } from './input-field';
import { SolverPool } from './round-solver';
import { RoundConvertible, RoundConvertibleType, RoundModelInput } from './round-types';

// The round's input, checked and read into decimals: every error names the field.

const CONVERTIBLE_TYPES: readonly RoundConvertibleType[] = [
  'post_money_safe',
  'pre_money_safe',
  'note',
];
const ZERO = new D(0);

export interface ParsedConvertible {
  key: string;
  holderKey: string;
  type: RoundConvertibleType;
  mfn: boolean;
  /**
   * What converts: SAFE amount, or note principal + accrued + unpaid interest (summed in
   * `convertInFinancing`'s order, so the solver's amount is the conversion's to the last digit).
   */
  amount: Decimal;
  accruedInterest: Decimal;
  cap?: Decimal;
  discount: Decimal;
  /** The same security as `convertInFinancing` converts it at the closing. */
  instrument: ConvertibleInstrument;
}

export interface ParsedRound {
  holders: { key: string; name?: string; before: Decimal }[];
  issued: Decimal;
  options: Decimal;
  poolAvailable: Decimal;
  /** issued + options + pool available: the fully diluted shares before the round. */
  existing: Decimal;
  converting: ParsedConvertible[];
  closingDate: IsoDate;
  preMoney: Decimal;
  investments: { name: string; amount: Decimal }[];
  newMoney: Decimal;
  pool: SolverPool;
  poolInPreMoney: boolean;
  fractional: boolean;
  priceDecimals?: number;
}

/** nonNegative naming the field, whose name is only built when the value is wrong. */
function quantity(field: () => InputField, value: DecimalInput): Decimal {
  try {
    return nonNegative('', value);
  } catch {
    return named(field(), (label) => nonNegative(label, value));
  }
}

function text(field: InputField, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalid(field, (label) => `${label} must be a non-empty string`);
  }
  return value;
}

function flag(field: InputField, value: unknown, fallback: boolean): boolean {
  if (value === undefined) {
    return fallback;
  }
  if (typeof value !== 'boolean') {
    throw invalid(field, (label) => `${label} must be true or false`);
  }
  return value;
}

function list<T>(field: string, value: readonly T[] | undefined): readonly T[] {
  if (value === undefined) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw invalid(field, (label) => `${label} must be a list`);
  }
  return value;
}

export function parseRoundInput(input: RoundModelInput): ParsedRound {
  const fractional = flag('fractional', input.fractional, false);
  const poolInPreMoney = flag('poolIncludedInPreMoney', input.poolIncludedInPreMoney, true);
  const convertSafes = flag('convertSafes', input.convertSafes, true);
  const convertNotes = flag('convertNotes', input.convertNotes, true);
  const priceDecimals =
    input.priceDecimals === undefined
      ? undefined
      : integerAtLeast('priceDecimals', input.priceDecimals, 0);
  const closingDate = input.closingDate;
  named('closingDate', () => parseDate(closingDate));

  const holderList = list('holders', input.holders);
  holderList.forEach((h, i) => text(`holders[${i}].key`, h?.key));
  uniqueKeys(
    'holders',
    holderList.map((h) => h.key),
  );
  let issued = ZERO;
  let options = ZERO;
  const holders = holderList.map((h, i) => {
    const of = (f: string) => ({ path: `holders[${i}].${f}`, label: `${f} of holder "${h.key}"` });
    const shares = quantity(() => of('shares'), h.shares);
    issued = issued.plus(shares);
    if (h.options === undefined) {
      return { key: h.key, name: h.name, before: shares };
    }
    const held = quantity(() => of('options'), h.options);
    options = options.plus(held);
    return { key: h.key, name: h.name, before: shares.plus(held) };
  });
  const poolAvailable = named('poolAvailable', (label) => nonNegative(label, input.poolAvailable));
  const existing = issued.plus(options).plus(poolAvailable);
  if (existing.isZero()) {
    throw invalid(
      'holders',
      (label) =>
        `${label} and poolAvailable: the fully diluted shares before the round must be greater than zero`,
    );
  }

  const convertibleList = list('convertibles', input.convertibles);
  convertibleList.forEach((c, i) => text(`convertibles[${i}].key`, c?.key));
  uniqueKeys(
    'convertibles',
    convertibleList.map((c) => c.key),
  );
  const converting = convertibleList
    .map((c, i) => parseConvertible(c, i, closingDate))
    .filter((c) => (c.type === 'note' ? convertNotes : convertSafes));

  const preMoney = named('preMoneyValuation', (label) => positive(label, input.preMoneyValuation));
  const investments = list('investments', input.investments).map((inv, i) => {
    const name = text(`investments[${i}].name`, inv?.name);
    const field = { path: `investments[${i}].amount`, label: `amount of investment "${name}"` };
    return { name, amount: named(field, (label) => nonNegative(label, inv.amount)) };
  });
  const newMoney = investments.reduce((acc, i) => acc.plus(i.amount), ZERO);

  return {
    holders,
    issued,
    options,
    poolAvailable,
    existing,
    converting,
    closingDate,
    preMoney,
    investments,
    newMoney,
    pool: parsePool(input.optionPoolTopUp, fractional),
    poolInPreMoney,
    fractional,
    priceDecimals,
  };
}

function parsePool(topUp: RoundModelInput['optionPoolTopUp'], fractional: boolean): SolverPool {
  if (topUp === undefined || topUp === null) {
    return { kind: 'none' };
  }
  const hasPercent = 'postMoneyPercent' in topUp && topUp.postMoneyPercent !== undefined;
  const hasIncrease = 'increase' in topUp && topUp.increase !== undefined;
  if (hasPercent === hasIncrease) {
    throw invalid(
      'optionPoolTopUp',
      (label) => `${label} takes exactly one of postMoneyPercent and increase`,
    );
  }
  if (hasPercent) {
    const field = 'optionPoolTopUp.postMoneyPercent';
    const percent = named(field, (label) =>
      inRange(label, (topUp as { postMoneyPercent: DecimalInput }).postMoneyPercent, 0, 100),
    );
    if (percent.equals(100)) {
      throw invalid(field, (label) => `${label} must be below 100`);
    }
    return { kind: 'percent', fraction: percent.div(100) };
  }
  const value = (topUp as { increase: DecimalInput }).increase;
  return {
    kind: 'fixed',
    increase: named('optionPoolTopUp.increase', (label) =>
      fractional ? nonNegative(label, value) : wholeNonNegative(label, value),
    ),
  };
}

function parseConvertible(
  c: RoundConvertible,
  index: number,
  closingDate: string,
): ParsedConvertible {
  const of = (f: string): InputField => ({
    path: `convertibles[${index}].${f}`,
    label: `${f} of convertible "${c.key}"`,
  });
  const holderKey = text(of('holderKey'), c.holderKey);
  if (!CONVERTIBLE_TYPES.includes(c.type)) {
    throw invalid(
      of('type'),
      (label) => `${label} must be one of ${CONVERTIBLE_TYPES.join(', ')} (got ${String(c.type)})`,
    );
  }
  const amount = named(of('amount'), (label) => positive(label, c.amount));
  const cap =
    c.valuationCap === undefined || c.valuationCap === null
      ? undefined
      : named(of('valuationCap'), (label) => positive(label, c.valuationCap!));
  const discount = named(of('discount'), (label) => inRange(label, c.discount ?? 0, 0, 1));
  if (discount.equals(1)) {
    throw invalid(
      of('discount'),
      (label) => `${label} must be below 1 (a fraction: "0.2" for 20%)`,
    );
  }
  const mfn = flag(of('mfn'), c.mfn, false);
  let interest = ZERO;
  let unpaid = ZERO;
  if (c.type !== 'note') {
    if (c.interest !== undefined || c.unpaidInterest !== undefined) {
      throw invalid(of('interest'), (label) => `${label}: only notes accrue interest`);
    }
  } else {
    unpaid = named(of('unpaidInterest'), (label) => nonNegative(label, c.unpaidInterest ?? 0));
    if (c.interest) {
      interest = noteInterest(c, amount, closingDate, of);
    }
  }
  return {
    key: c.key,
    holderKey,
    type: c.type,
    mfn,
    amount: amount.plus(interest).plus(unpaid),
    accruedInterest: interest,
    cap,
    discount,
    instrument: instrumentOf(c, closingDate, { amount, unpaid, cap, discount }),
  };
}

/** A note without interest terms accrues nothing: no rate, from the closing itself. */
function instrumentOf(
  c: RoundConvertible,
  closingDate: IsoDate,
  parsed: { amount: Decimal; unpaid: Decimal; cap?: Decimal; discount: Decimal },
): ConvertibleInstrument {
  const terms = {
    ...(parsed.cap && { valuationCap: parsed.cap }),
    discount: parsed.discount,
  };
  if (c.type !== 'note') {
    return { key: c.key, kind: c.type, purchaseAmount: parsed.amount, ...terms };
  }
  const interest = c.interest;
  return {
    key: c.key,
    kind: 'note',
    principal: parsed.amount,
    annualRate: interest?.annualRate ?? 0,
    interestType: interest?.interestType ?? 'simple',
    dayCount: interest?.dayCount ?? 'actual/365',
    ...(interest?.compoundingPeriodsPerYear !== undefined && {
      compoundingPeriodsPerYear: interest.compoundingPeriodsPerYear,
    }),
    interestFrom: interest?.issueDate ?? closingDate,
    unpaidInterest: parsed.unpaid,
    ...terms,
  };
}

function noteInterest(
  c: RoundConvertible,
  principal: Decimal,
  closingDate: string,
  of: (field: string) => InputField,
): Decimal {
  const terms = c.interest!;
  const rate = named(of('interest.annualRate'), (label) => nonNegative(label, terms.annualRate));
  if (terms.interestType !== 'simple' && terms.interestType !== 'compound') {
    throw invalid(
      of('interest.interestType'),
      (label) => `${label} must be "simple" or "compound"`,
    );
  }
  if (!DAY_COUNT_CONVENTIONS.includes(terms.dayCount)) {
    throw invalid(
      of('interest.dayCount'),
      (label) => `${label} must be one of ${DAY_COUNT_CONVENTIONS.join(', ')}`,
    );
  }
  named(of('interest.issueDate'), () => parseDate(terms.issueDate));
  if (compareDates(closingDate, terms.issueDate) < 0) {
    throw invalid(
      of('interest.issueDate'),
      (label) => `${label} (${terms.issueDate}) is after closingDate (${closingDate})`,
    );
  }
  return named(of('interest'), () =>
    accruedInterest({
      principal,
      annualRate: rate,
      interestType: terms.interestType,
      dayCount: terms.dayCount,
      compoundingPeriodsPerYear: terms.compoundingPeriodsPerYear,
      startDate: terms.issueDate,
      endDate: closingDate,
    }),
  );
}
