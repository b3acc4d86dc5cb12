import { DecimalInput, toDecimalString } from '../decimal';
import { nonNegative, uniqueKeys } from '../validate';
import { InputField, invalid, named } from './input-field';
import { pow10 } from './waterfall-cents';
import { WaterfallStructure } from './waterfall-types';

// Reading the waterfall's input: keys, seniorities and exact share counts. Every error names
// the field.

export function requireKey(field: InputField, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalid(field, (label) => `${label} must be a non-empty string`);
  }
  return value;
}

export function seniorityOf(field: InputField, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw invalid(field, (label) => `${label} must be a whole number (got ${String(value)})`);
  }
  return value;
}

/** Every class, option and convertible has a key, unique among its kind. */
export function checkKeys(input: WaterfallStructure): void {
  const kinds: [string, readonly { key: string }[]][] = [
    ['classes', input.classes ?? []],
    ['options', input.options ?? []],
    ['convertibles', input.convertibles ?? []],
  ];
  for (const [kind, items] of kinds) {
    items.forEach((item, i) => requireKey(`${kind}[${i}].key`, item.key));
    uniqueKeys(
      kind,
      items.map((item) => item.key),
    );
  }
}

/** The holders, numbered in order of first appearance. */
export class Holders {
  readonly keys: string[] = [];
  private readonly indexOf = new Map<string, number>();

  /** The index of the holder `value` names (the input's `field`), numbering a new one. */
  index(field: string, value: unknown): number {
    let index = this.indexOf.get(value as string);
    if (index === undefined) {
      const key = requireKey(field, value);
      index = this.keys.length;
      this.indexOf.set(key, index);
      this.keys.push(key);
    }
    return index;
  }
}

/** A non-negative quantity as an exact integer count of 10^-scale. */
export interface Units {
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
export function quantity(field: InputField, value: DecimalInput): Units {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return { units: BigInt(value), scale: 0 };
  }
  let match = typeof value === 'string' ? PLAIN_NON_NEGATIVE.exec(value) : null;
  if (!match) {
    const text = toDecimalString(named(field, (label) => nonNegative(label, value)));
    match = PLAIN_NON_NEGATIVE.exec(text)!;
  }
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  return { units: BigInt((match[1] ?? '') + fraction || '0'), scale: fraction.length };
}

export const rescale = (q: Units, scale: number): bigint => q.units * pow10(scale - q.scale);
