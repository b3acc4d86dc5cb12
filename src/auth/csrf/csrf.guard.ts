import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { HttpError } from '../../common/errors/app-error';
import { Env } from '../../config/env.schema';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for the cookie-session routes that change state: a browser marks a request from
 * another site with `Sec-Fetch-Site: cross-site`, and sends `Origin` on cross-origin POSTs. Either
 * pointing elsewhere than the frontend (FRONTEND_URL) or the API itself (API_PUBLIC_URL, or the
 * host the request came to) is refused with 403 `{error}`. Clients that send neither header
 * (server-to-server, curl) are not browsers and carry no ambient cookie risk.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly allowed: Set<string>;

  constructor(env: Env) {
    this.allowed = new Set(
      [env.FRONTEND_URL, env.API_PUBLIC_URL].filter(Boolean).map((u) => new URL(u!).origin),
    );
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return true;
    if (req.get('sec-fetch-site')?.toLowerCase() === 'cross-site') throw HttpError.forbidden();
    const origin = req.get('origin');
    if (origin !== undefined && !this.allowed.has(origin) && origin !== ownOrigin(req)) {
      throw HttpError.forbidden();
    }
    return true;
  }
}

const ownOrigin = (req: Request) => `${req.protocol}://${req.get('host')}`;
