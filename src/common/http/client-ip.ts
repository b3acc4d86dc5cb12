import type { Request } from 'express';

/**
 * The caller's IP as express resolved it: the socket's address, or X-Forwarded-For's only behind
 * a proxy configured with TRUST_PROXY. IPv4 addresses mapped into IPv6 are written the IPv4 way so
 * that one client has one spelling.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
