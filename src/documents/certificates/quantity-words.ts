/**
 * Quantities in words and in figures, as a certificate prints them ("One Thousand Two Hundred
 * Fifty (1,250) shares"). Works on the decimal text alone, never through floating point, so every
 * digit of a numeric(38, 10) quantity is kept.
 */

const SMALL = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];
/** Short scale (US usage), one per group of three digits; 36 digits is more than numeric(38, 10) holds. */
const SCALES = [
  '',
  'Thousand',
  'Million',
  'Billion',
  'Trillion',
  'Quadrillion',
  'Quintillion',
  'Sextillion',
  'Septillion',
  'Octillion',
  'Nonillion',
  'Decillion',
];

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function parts(decimal: string): { whole: string; fraction: string } {
  const match = DECIMAL.exec(decimal);
  if (!match) throw new RangeError(`not a non-negative decimal: ${decimal}`);
  const whole = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (whole.length > SCALES.length * 3) throw new RangeError(`too large to write out: ${decimal}`);
  return { whole, fraction };
}

/** 0 < n < 1000. */
function hundreds(n: number): string {
  const words: string[] = [];
  if (n >= 100) words.push(`${SMALL[Math.floor(n / 100)]} Hundred`);
  const rest = n % 100;
  if (rest >= 20)
    words.push(TENS[Math.floor(rest / 10)] + (rest % 10 ? `-${SMALL[rest % 10]}` : ''));
  else if (rest > 0) words.push(SMALL[rest]);
  return words.join(' ');
}

/** A whole number given by its digits: "1250" → "One Thousand Two Hundred Fifty". */
export function wholeNumberInWords(digits: string): string {
  const { whole } = parts(digits);
  if (/^0+$/.test(whole)) return SMALL[0];
  const groups: string[] = [];
  for (let end = whole.length, scale = 0; end > 0; end -= 3, scale++) {
    const group = Number(whole.slice(Math.max(0, end - 3), end));
    if (group)
      groups.unshift(SCALES[scale] ? `${hundreds(group)} ${SCALES[scale]}` : hundreds(group));
  }
  return groups.join(' ');
}

/**
 * A decimal in words; a fractional part is written as a fraction over its power of ten, as on a
 * cheque: "1250.5" → "One Thousand Two Hundred Fifty and 5/10", "0.25" → "Zero and 25/100".
 */
export function numberInWords(decimal: string): string {
  const { whole, fraction } = parts(decimal);
  const words = wholeNumberInWords(whole);
  if (!fraction) return words;
  return `${words} and ${fraction.replace(/^0+/, '')}/1${'0'.repeat(fraction.length)}`;
}

/** A decimal with thousands separators: "1250.5" → "1,250.5". */
export function numberInFigures(decimal: string): string {
  const { whole, fraction } = parts(decimal);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/** "shares", or "share" for exactly one. */
export function unitsOf(quantity: string, unit: 'share' | 'unit'): string {
  const { whole, fraction } = parts(quantity);
  return whole === '1' && !fraction ? unit : `${unit}s`;
}

/** "One Thousand Two Hundred Fifty (1,250) shares"; "One (1) unit" for exactly one. */
export function quantityInWords(quantity: string, unit: 'share' | 'unit'): string {
  return `${numberInWords(quantity)} (${numberInFigures(quantity)}) ${unitsOf(quantity, unit)}`;
}
