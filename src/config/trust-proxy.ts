import { isIP } from 'node:net';
import { registerDecorator } from 'class-validator';

/** What express's `trust proxy` setting accepts, as we allow it. */
export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(item: string): boolean {
  if (NAMED.has(item)) return true;
  const [address, bits, ...rest] = item.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY → express `trust proxy`. Unset: false, so the client address is the socket's and a
 * client-supplied X-Forwarded-For is ignored. A number trusts that many hops; otherwise a list of
 * proxy addresses, CIDRs or express's names (`loopback`, `linklocal`, `uniquelocal`).
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim();
  if (!value || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function isTrustProxy(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  const parsed = parseTrustProxy(raw);
  if (parsed === false || typeof parsed === 'number') return true;
  return parsed.length > 0 && parsed.every(isAddressOrCidr);
}

export function IsTrustProxy() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTrustProxy',
      target: object.constructor,
      propertyName,
      validator: {
        validate: isTrustProxy,
        defaultMessage: (args) =>
          `${args?.property} must be a hop count, or a comma-separated list of loopback, linklocal, uniquelocal, IP addresses or CIDRs (got "${String(args?.value)}")`,
      },
    });
}
