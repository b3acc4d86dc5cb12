/**
 * Money as the billing provider keeps it (integer cents) and as we answer it (a decimal string
 * with two decimals, `"49.00"`). Converted as text, never through a float: `0.1 + 0.2` must not
 * turn into a charge of 30.000000000000004 cents.
 */

/** A signed amount with at most two decimals: `49`, `49.5`, `-0.25`. */
const AMOUNT = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** `4900` → `"49.00"`, `-5` → `"-0.05"`. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const sign = cents < 0 ? '-' : '';
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * `"49.00"`, `"49.5"` or the number `49.5` → cents; undefined for anything else: more than two
 * decimals, an exponent, a blank, past the safe integers. Numbers go through their shortest
 * decimal text (what JSON.parse read), so `0.1` is 10 cents while `0.1 + 0.2` is refused.
 */
export function decimalToCents(value: string | number): number | undefined {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = AMOUNT.exec(text);
  if (!match) return undefined;
  const [, minus, units, fraction = ''] = match;
  const cents = Number(units) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return undefined;
  return minus && cents !== 0 ? -cents : cents;
}

/**
 * A decimal of the provider's (`"49.0"`, `"1.5"`, `"-10.0"`) in our two-decimal form; the
 * provider writes prices with as few decimals as it likes. Undefined if it has more than two.
 */
export function normalizeDecimal(value: string | number): string | undefined {
  const cents = decimalToCents(value);
  return cents === undefined ? undefined : centsToDecimal(cents);
}
