import { toDecimal, toDecimalString } from '../cap-math';

/** OCF objects as the export writes them: plain JSON. */
export type OcfItem = Record<string, unknown> & { object_type: string };

/** OCF `Numeric`: at most 10 decimals. */
const NUMERIC_PLACES = 10;

/**
 * A decimal as OCF `Numeric` (a string, at most 10 decimals). A value with more decimals is
 * rounded, and its exact value is added to `comments` under `key`.
 */
/** A canonical decimal of at most 10 places (no trailing zeros): already OCF `Numeric`. */
const CANONICAL = /^-?(0|[1-9][0-9]*)(\.[0-9]{0,9}[1-9])?$/;

export function numeric(value: string | number, comments?: string[], key?: string): string {
  // The common case, as the database gives it (100,000 issuances: no Decimal each).
  if (typeof value === 'string' && CANONICAL.test(value)) return value;
  const d = toDecimal(value);
  if (d.decimalPlaces() <= NUMERIC_PLACES) return toDecimalString(d);
  if (comments && key) comments.push(ledgerComment(key, toDecimalString(d)));
  return toDecimalString(d.toDecimalPlaces(NUMERIC_PLACES));
}

export const monetary = (amount: string | number, currency: string) => ({
  amount: numeric(amount),
  currency,
});

/** A percent on our 0–100 scale as OCF `Percentage` (a fraction 0–1). */
export const percentage = (percent: string) =>
  toDecimalString(toDecimal(percent).div(100).toDecimalPlaces(NUMERIC_PLACES));

/**
 * A fact OCF has no field for, as one `comments` entry: `ledgerline:<key>=<JSON>`. Machine
 * readable (the import reads them back), never dropped. See docs/ocf.md.
 */
export const ledgerComment = (key: string, value: unknown) =>
  `ledgerline:${key}=${JSON.stringify(value)}`;

/** Adds `comments` to an object when there are any (OCF's `comments` is optional). */
export function withComments<T extends Record<string, unknown>>(
  item: T,
  comments: string[],
): T & { comments?: string[] } {
  return comments.length ? { ...item, comments } : item;
}

/** Leaves out the members whose value is undefined or null (OCF optional fields). */
export function compact<T extends Record<string, unknown>>(item: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (v !== undefined && v !== null) out[k] = v;
  return out as T;
}
