import * as ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Where a webhook may be sent (issue 21's SSRF rules, issue 35's global unicast rule), checked at
 * registration, on PATCH and before each attempt. Pure but for the injected name lookup.
 */
export interface UrlPolicyOptions {
  /** `http` is refused in production, `https` only. */
  production: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: loopback and private networks allowed; metadata never. */
  allowPrivate: boolean;
}

/** Every address a host name resolves to (IPv4 and IPv6). */
export type ResolveHost = (host: string) => Promise<string[]>;

/**
 * A refused host name, whatever it resolved to or whether it resolved at all: the answer must not
 * tell a caller how a name resolves inside our network.
 */
export const NAME_NOT_ALLOWED = 'url must resolve to a public address';

// Cloud instance metadata: credentials one request away, refused even on a private network.
const METADATA = ['169.254.169.254', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toString());

/**
 * The ranges of ipaddr.js's table that WEBHOOK_ALLOW_PRIVATE_URLS opens: a receiver on this host
 * or its network. Everything else but `unicast` (multicast, broadcast, reserved, documentation,
 * benchmarking, the IPv6 forms that carry an IPv4 address through a translator: NAT64, 6to4,
 * Teredo, IPv4-translated) is refused always, so the table's maintainers decide what is special.
 */
const PRIVATE_RANGES = new Set([
  'unspecified', // 0.0.0.0/8 and ::, which reach the local host
  'loopback',
  'private',
  'carrierGradeNat',
  'linkLocal',
  'uniqueLocal',
]);

// The global unicast space of IPv6 (RFC 4291): `unicast` in the table outside it, e.g. the
// deprecated IPv4-compatible ::/96, is no address of the Internet.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

type AddressKind = 'public' | 'private' | 'metadata' | 'special';

function kindOf(address: ipaddr.IPv4 | ipaddr.IPv6): AddressKind {
  if (METADATA.includes(address.toString())) return 'metadata';
  const range = address.range();
  if (range === 'unicast') {
    return address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6) ? 'public' : 'special';
  }
  return PRIVATE_RANGES.has(range) ? 'private' : 'special';
}

/**
 * The address in the form ipaddr.js reads as the network stack does, or undefined when it is no
 * address. node's isIP is strict (dotted decimal quads only; ipaddr.js would take 0x7f.1). An IPv6
 * address with a dotted tail is rewritten by the URL parser into hex groups first: ipaddr.js 2
 * reads `::127.0.0.1` (IPv4-compatible, which is how getaddrinfo prints ::7f00:1) as IPv4-mapped.
 * A zone id (fe80::1%eth0) makes it no address for a webhook.
 */
function canonical(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** The address and why it is refused ("10.0.0.1, a ... address"), or undefined when allowed. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  const text = canonical(address);
  if (!text || !ipaddr.isValid(text)) return `${address}, not an IP address`;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 address: judged as that.
  switch (kindOf(ipaddr.process(text))) {
    case 'public':
      return undefined;
    case 'private':
      return allowPrivate
        ? undefined
        : `${address}, a loopback, private, link-local or unique-local address`;
    case 'metadata':
      return `${address}, a cloud metadata address`;
    case 'special':
      return `${address}, not a global unicast address`;
  }
}

const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/.test(host);

/**
 * Why a webhook URL is refused, or undefined when it is allowed. Host names are resolved and
 * refused when any of their addresses is, with the one message NAME_NOT_ALLOWED.
 */
export async function refusedWebhookUrl(
  raw: string,
  options: UrlPolicyOptions,
  resolve: ResolveHost,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not an absolute URL';
  }
  const schemes = options.production ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) {
    return `url must use ${options.production ? 'https' : 'https or http'}`;
  }
  // The URL parser has already turned decimal and hex IPv4 forms into dotted quads.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isIP(host)) {
    // The address is the caller's own text: saying what it is reveals nothing.
    const refused = refusedAddress(host, options.allowPrivate);
    return refused && `url points to ${refused}`;
  }
  if (isLocalhostName(host) && !options.allowPrivate) return `${host} is a loopback name`;
  return (await refusedName(host, options.allowPrivate, resolve)) ? NAME_NOT_ALLOWED : undefined;
}

/** Whether a host name is refused: it does not resolve, or one of its addresses is refused. */
async function refusedName(
  host: string,
  allowPrivate: boolean,
  resolve: ResolveHost,
): Promise<boolean> {
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return true;
  }
  return !addresses.length || addresses.some((a) => refusedAddress(a, allowPrivate));
}
