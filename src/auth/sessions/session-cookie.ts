import type { NextFunction, Request, Response } from 'express';
import session from 'express-session';
import { DomainError } from '../../common';
import { DEV_SESSION_SECRET, Env, isProduction } from '../../config';
import type { RedisConnections } from '../../redis';
import { RollingRedisStore } from './rolling-redis-store';

export const SESSION_COOKIE = 'connect.sid';

/** The session cookie's attributes (spec section 5); clearing the cookie must repeat them. */
export const sessionCookieOptions = (env: Env) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: isProduction(env),
});

/**
 * express-session on Redis with the settings of spec section 5: rolling expiry, nothing stored for
 * an empty session. `proxy` follows TRUST_PROXY: a secure cookie is sent behind a TLS-terminating
 * proxy only when that proxy is configured as trusted (X-Forwarded-Proto is believed only then).
 * While Redis is unreachable the store fails fast and the request gets 503 instead of hanging.
 */
export function sessionMiddleware(env: Env, redis: RedisConnections) {
  const store = new RollingRedisStore(
    redis.session(),
    `${redis.prefix}sess:`,
    env.API_SESSION_MAX_AGE,
  );
  const middleware = session({
    name: SESSION_COOKIE,
    secret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: env.trustProxy !== false,
    cookie: { ...sessionCookieOptions(env), maxAge: env.API_SESSION_MAX_AGE },
  });
  return (req: Request, res: Response, next: NextFunction) =>
    middleware(req, res, (err?: unknown) =>
      next(err ? DomainError.serviceUnavailable('session store unavailable') : undefined),
    );
}
