import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent (issue 21's SSRF rules), checked at registration, on PATCH and, once
 * delivery exists, before each attempt. Pure but for the injected name lookup.
 */
export interface UrlPolicyOptions {
  /** `http` is refused in production, `https` only. */
  production: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: loopback and private networks allowed; metadata never. */
  allowPrivate: boolean;
}

/** Every address a host name resolves to (IPv4 and IPv6). */
export type ResolveHost = (host: string) => Promise<string[]>;

function blockList(subnets: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) {
    list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

// Cloud instance metadata: credentials one request away, refused even on a private network.
const METADATA = blockList([
  ['169.254.169.254', 32],
  ['fd00:ec2::254', 128],
]);

// Node's BlockList also matches the IPv4-mapped forms (::ffff:a.b.c.d) of the IPv4 subnets.
const PRIVATE = blockList([
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
]);

/**
 * The IPv4 address an IPv6 address carries and reaches through a translator: NAT64 (64:ff9b::/96,
 * the last 32 bits) and 6to4 (2002::/16, bits 16 to 47). IPv4-mapped forms BlockList matches itself.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const quad = (high: number, low: number) =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) {
    return quad(groups[6], groups[7]);
  }
  if (groups[0] === 0x2002) return quad(groups[1], groups[2]);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(rest);
  const groups =
    rest === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** The address and why it is refused ("10.0.0.1, a ... address"), or undefined when allowed. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  const family = isIP(address);
  if (!family) return `${address}, not an IP address`;
  const carried = family === 6 ? embeddedIpv4(address) : undefined;
  if (carried) {
    const refused = refusedAddress(carried, allowPrivate);
    if (refused) return `${address}, which reaches ${refused}`;
  }
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (METADATA.check(address, type)) return `${address}, a cloud metadata address`;
  if (!allowPrivate && PRIVATE.check(address, type)) {
    return `${address}, a loopback, private, link-local or unique-local address`;
  }
  return undefined;
}

const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/.test(host);

/**
 * Why a webhook URL is refused, or undefined when it is allowed. Host names are resolved and
 * refused when any of their addresses is.
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
    const refused = refusedAddress(host, options.allowPrivate);
    return refused && `url points to ${refused}`;
  }
  if (isLocalhostName(host) && !options.allowPrivate) return `${host} is a loopback name`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `${host} does not resolve`;
  }
  if (!addresses.length) return `${host} does not resolve`;
  for (const address of addresses) {
    const refused = refusedAddress(address, options.allowPrivate);
    if (refused) return `${host} resolves to ${refused}`;
  }
  return undefined;
}
