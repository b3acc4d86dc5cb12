/**
 * Exact sums of decimal strings as the API writes them (no floating point): percent strings of
 * at most 4 decimals in units of 0.0001, money of at most 2 decimals in cents.
 */
const sumInUnits = (values: string[], decimals: number) =>
  values.reduce((acc, v) => {
    const [whole, fraction = ''] = v.split('.');
    return acc + BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0'));
  }, 0n);

export const sumOfPercents = (values: string[]) => sumInUnits(values, 4);
export const cents = (values: string[]) => sumInUnits(values, 2);
