import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Env } from '../../config';
import { DomainError } from '../errors/domain-error';
import { Clock } from '../time/clock';
import { clientIp } from './client-ip';
import { isInProcess } from './in-process-requests';
import { RateLimiter } from './rate-limiter';
import { listRoutes, RouteEntry } from './route-table';
import { SHARED_REDIS, SharedRedis } from './shared-redis';

const UNCOUNTED = Symbol('not-rate-limited');
type Marked = Request & { [UNCOUNTED]?: true };

/**
 * Routes that do not count: health checks (and metrics, when served), which load balancers and
 * probes call at their own pace, and the machine callers' routes (gateway hooks, the messaging
 * gateway, the billing provider's webhooks: `@Machine`, and every `@RawBody` route, the hooks'
 * 405 answers included), which have their own credential and its failed-check throttle.
 * API-key routes do count (per key, once keys exist).
 */
export const uncountedRoute = (route: RouteEntry): boolean =>
  route.rawBody !== undefined ||
  uncountedPath(route.path, route.access?.kind === 'machine' ? route.access.machine : undefined);

/** `uncountedRoute` of a path and its machine kind (the OpenAPI document's `x-machine`). */
export const uncountedPath = (path: string, machine?: string): boolean =>
  /^\/(health|metrics)(\/|$)/.test(path) || (machine !== undefined && machine !== 'apiKey');

/**
 * Whose requests count together: a logged-in session's, else the client address's (express's
 * `req.ip`: X-Forwarded-For only behind TRUST_PROXY, so a client cannot invent addresses). The
 * seam for API keys (none issued yet, see machine-access.ts): a request carrying a verified key
 * will count as `key:<key id>`, ahead of the session.
 */
export function rateLimitCaller(req: Request): string {
  if (req.session?.userId) return `session:${req.sessionID}`;
  return `ip:${clientIp(req)}`;
}

/**
 * The request rate limit of spec section 8 (RATE_LIMIT_ENABLED, RATE_LIMIT_PER_MINUTE), as
 * express middleware mounted after the session (it needs the caller) and before the list
 * shortcut (a 304 counts too). Counted with a `RateLimiter` in Redis, so every instance shares
 * one count per caller. A counted answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset`; past the limit it is 429 with `Retry-After` as well. While Redis is down,
 * 503. Requests made in process for a request (`POST /v1/query`'s reads) counted with it.
 */
export function requestRateLimit(app: INestApplication) {
  const env = app.get(Env);
  if (!env.RATE_LIMIT_ENABLED) return (_req: Request, _res: Response, next: NextFunction) => next();
  markUncountedRoutes(app);
  const shared = app.get<SharedRedis>(SHARED_REDIS);
  const limiter = new RateLimiter(
    shared.session(),
    `${shared.prefix}requests:`,
    { limit: env.RATE_LIMIT_PER_MINUTE, windowMs: 60_000 },
    app.get(Clock),
  );
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req as Marked)[UNCOUNTED] || isInProcess(req)) return next();
    limiter.take(rateLimitCaller(req)).then(
      (state) => {
        res.setHeader('X-RateLimit-Limit', String(state.limit));
        res.setHeader('X-RateLimit-Remaining', String(state.remaining));
        res.setHeader('X-RateLimit-Reset', String(state.reset));
        next();
      },
      (err: unknown) =>
        next(
          err instanceof DomainError
            ? err
            : DomainError.serviceUnavailable('the rate limit store (Redis) is unavailable'),
        ),
    );
  };
}

/** Marks the requests of the uncounted routes, as express matches the routes' own paths. */
function markUncountedRoutes(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Record<
    string,
    (path: string, handler: (req: Request, res: Response, next: NextFunction) => void) => void
  >;
  for (const route of listRoutes(app).filter(uncountedRoute)) {
    const method = route.method === 'ALL' ? 'all' : route.method.toLowerCase();
    express[method](route.path, (req, _res, next) => {
      (req as Marked)[UNCOUNTED] = true;
      next();
    });
  }
}
