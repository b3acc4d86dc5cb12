import ipaddr from 'ipaddr.js';

/** IPv6 addresses sharing this many leading bits are one client (a /64 is one subscriber's LAN). */
const IPV6_CLIENT_BITS = 64;

/**
 * The client a per-address limit counts: an IPv4 address (an IPv4-mapped IPv6 one written the
 * IPv4 way) as it is, an IPv6 address by its /64, since one subscriber gets a whole /64 and may
 * pick any address in it for each request. Anything unparsable counts as itself.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.map((part, i) =>
    i * 16 < IPV6_CLIENT_BITS ? part : 0,
  );
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_CLIENT_BITS}`;
}
