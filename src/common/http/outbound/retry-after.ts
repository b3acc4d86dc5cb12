/**
 * The wait an answer asks for before the next attempt (ms): `retry-after-ms` (the model
 * provider's), else `Retry-After` in seconds (fractions read as the Anthropic SDK reads them) or
 * as an HTTP date, counted from the answer's own `Date` (RFC 9110: no clock of ours enters).
 * Undefined when absent, unreadable or not in the future.
 */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms) && ms > 0) return ms;
  const after = headers.get('retry-after')?.trim();
  if (!after) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(after) ? parseFloat(after) : undefined;
  const wait =
    seconds !== undefined
      ? seconds * 1000
      : Date.parse(after) - Date.parse(headers.get('date') ?? '');
  return Number.isNaN(wait) || wait <= 0 ? undefined : wait;
}
