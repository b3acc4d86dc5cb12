import type { Request } from 'express';
import { constantTimeEqual } from '../../common';

export const G_CSRF_COOKIE = 'g_csrf_token';

/** The value of one cookie of the request, if present. */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The double-submit rule: the form's `g_csrf_token` is present and equals the cookie's. */
export function doubleSubmitMatches(req: Request, fromBody: string | undefined): boolean {
  const fromCookie = readCookie(req, G_CSRF_COOKIE);
  return Boolean(fromBody && fromCookie && constantTimeEqual(fromBody, fromCookie));
}
