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

/** The address and why it is refused ("10.0.0.1, a ... address"), or undefined when allowed. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  const family = isIP(address);
  if (!family) return `${address}, not an IP address`;
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
