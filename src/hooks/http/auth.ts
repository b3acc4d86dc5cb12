import type { IncomingMessage } from 'node:http';
import { constantTimeEqual } from '../../common';

/** Headers a template or transform never sees: they carry the caller's credentials. */
const SECRET_HEADERS = new Set(['authorization', 'x-service-token', 'cookie']);

/**
 * The token a caller presents: `Authorization: Bearer`, else `x-service-token`, else the `token`
 * query parameter (spec 5.12 accepts it, deprecated: URLs end up in proxies' and browsers' logs).
 */
export function presentedToken(
  req: IncomingMessage,
  url: URL,
): { token?: string; fromQuery: boolean } {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (bearer) return { token: bearer[1], fromQuery: false };
  const header = req.headers['x-service-token'];
  if (typeof header === 'string' && header) return { token: header, fromQuery: false };
  const query = url.searchParams.getAll('token');
  if (query.length) return { token: query.length === 1 ? query[0] : undefined, fromQuery: true };
  return { fromQuery: false };
}

/**
 * Hashed, then compared in constant time: neither the value nor the length leaks. An empty token
 * never matches (`?token=` against an unset one).
 */
export const tokenMatches = (token: string | undefined, expected: string | undefined) =>
  !!token && !!expected && constantTimeEqual(token, expected);

/** The request's headers without the credentials. */
export function safeHeaders(req: IncomingMessage): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !SECRET_HEADERS.has(name)),
  );
}

/** The URL without its `token` parameter: for logs, templates and transforms. */
export function safeUrl(url: URL): URL {
  const safe = new URL(url);
  safe.searchParams.delete('token');
  return safe;
}
