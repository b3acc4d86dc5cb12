import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../common';

const SECRET_PREFIX = 'whsec_';

/**
 * The Standard Webhooks key is the base64 part of the secret, decoded; the whole string keys
 * `Service-Signature` instead, so both schemes start from the same stored secret.
 */
function standardKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('A webhook secret needs a key after whsec_');
  return key;
}

function digest(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest('base64');
}

/** `webhook-signature`: `v1,<base64>` per secret, space-separated (standardwebhooks.com). */
export function standardSignature(
  id: string,
  timestamp: number,
  body: string,
  secrets: readonly string[],
): string {
  return secrets.map((secret) => `v1,${digest(secret, id, timestamp, body)}`).join(' ');
}

/**
 * A consumer's check of the `webhook-*` headers with one of its secrets, in constant time: true
 * when one `v1` signature matches and the timestamp is within `toleranceSeconds` of `now`.
 */
export function verifyStandardSignature(
  headers: { id: string; timestamp: string; signature: string },
  body: string | Buffer,
  secret: string,
  { now, toleranceSeconds = 300 }: { now: number; toleranceSeconds?: number },
): boolean {
  if (!/^\d+$/.test(headers.timestamp)) return false;
  const timestamp = Number(headers.timestamp);
  if (Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = digest(secret, headers.id, timestamp, body);
  return headers.signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => constantTimeEqual(entry.slice(3), expected));
}
