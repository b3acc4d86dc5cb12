import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../common';
import { standardSignature } from './standard-webhooks';

function digest(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/**
 * `Service-Signature: t=<unix>,v1=<hex>`: HMAC-SHA256 of `<t>.<raw body>` keyed with the whole
 * secret string. During a rotation every active secret adds its own `v1=`, so a consumer still
 * holding the old secret keeps verifying.
 */
export function serviceSignature(timestamp: number, body: string, secrets: readonly string[]) {
  return [
    `t=${timestamp}`,
    ...secrets.map((secret) => `v1=${digest(secret, timestamp, body)}`),
  ].join(',');
}

/**
 * A consumer's check of `Service-Signature` with one of its secrets, in constant time: true when
 * one `v1=` matches and `t` is within `toleranceSeconds` of `now` (a replayed old delivery fails).
 */
export function verifyServiceSignature(
  header: string,
  body: string | Buffer,
  secret: string,
  { now, toleranceSeconds = 300 }: { now: number; toleranceSeconds?: number },
): boolean {
  const pairs = header.split(',').map((part) => part.trim().split('='));
  const times = pairs.filter(([key]) => key === 't').map(([, value]) => value);
  if (times.length !== 1 || !/^\d+$/.test(times[0])) return false;
  const timestamp = Number(times[0]);
  if (Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = digest(secret, timestamp, body);
  return pairs.some(([key, value]) => key === 'v1' && constantTimeEqual(value ?? '', expected));
}

export interface SignedDelivery {
  /** The event id: `webhook-id`, the same on every retry. */
  eventId: string;
  /** The exact bytes sent, as text: a signature covers the body as sent, not as re-serialized. */
  body: string;
  /** Unix seconds of this attempt; each retry signs with a fresh one. */
  timestamp: number;
  /** Every active secret of the endpoint: two during a rotation. */
  secrets: readonly string[];
}

/** The headers of one delivery attempt: both signature schemes, so either library verifies it. */
export function deliveryHeaders({
  eventId,
  body,
  timestamp,
  secrets,
}: SignedDelivery): Record<string, string> {
  if (secrets.length === 0) throw new Error('A delivery is signed with at least one secret');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new Error('A delivery timestamp is whole unix seconds');
  }
  return {
    'Content-Type': 'application/json',
    'Service-Signature': serviceSignature(timestamp, body, secrets),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(eventId, timestamp, body, secrets),
  };
}
