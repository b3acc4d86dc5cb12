import { WEBHOOK_DELIVERY } from '../../events';

/** An endpoint failing every attempt this long since its last success is disabled (spec 6). */
export const FAILING_DISABLE_AFTER_MS = 3 * 24 * 3600_000;

/**
 * How long a worker holds an endpoint while it sends (longer than an attempt can take); a worker
 * that died holding it is replaced once this has passed.
 */
export const LEASE_MS = 60_000;

/**
 * When the attempt after failed attempt `attempt` (1-based) is due, counted from the failure;
 * null when it was the last.
 */
export function nextAttemptAt(attempt: number, failedAt: Date): Date | null {
  if (attempt >= WEBHOOK_DELIVERY.attempts) return null;
  return new Date(failedAt.getTime() + WEBHOOK_DELIVERY.retryDelaysMs[attempt - 1]);
}

/** Success is any 2xx; every other status, 3xx included, and no response, is a failure. */
export const succeeded = (httpStatus: number) => httpStatus >= 200 && httpStatus < 300;
