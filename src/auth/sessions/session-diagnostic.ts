import type { Request } from 'express';
import { SESSION_COOKIE } from './session-cookie';
import type { SessionDiagnostic } from './session.dto';

/** The cookie's session id (`s:<id>.<signature>`), unverified: only compared with the real one. */
function cookieSessionId(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    const value = decodeURIComponent(rest.join('='));
    return value.startsWith('s:') ? value.slice(2, value.lastIndexOf('.')) : undefined;
  }
  return undefined;
}

/**
 * Spec section 2, Session diagnostic. `hasSession` is true when the request's cookie named a
 * session that the store still had (express-session keeps the id only then, after checking the
 * signature); only the first 8 characters of the id are shown.
 */
export function diagnoseSession(req: Request, now: Date): SessionDiagnostic {
  const fromCookie = cookieSessionId(req);
  const hasSession = Boolean(fromCookie && fromCookie === req.sessionID);
  const userId = (hasSession && req.session.userId) || null;
  return {
    hasSession,
    hasUser: Boolean(userId),
    userId,
    sessionIdPrefix: `${req.sessionID.slice(0, 8)}...`,
    hasConnectSidCookie: fromCookie !== undefined || hasCookie(req),
    cookieSecure: Boolean(req.session.cookie.secure),
    cookieMaxAge: req.session.cookie.maxAge ?? 0,
    timestamp: now.toISOString(),
  };
}

const hasCookie = (req: Request) =>
  (req.headers.cookie ?? '').split(';').some((p) => p.trim().startsWith(`${SESSION_COOKIE}=`));
