import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Env } from '../../config';
import { DomainError } from '../errors/domain-error';
import { CSRF_KEY, CsrfRule } from './access.decorators';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The app-wide defence against cross-site requests, which the session cookie would otherwise
 * authenticate. For every unsafe method:
 * - `Origin`, when present, decides alone: it must be FRONTEND_URL, one of ALLOWED_ORIGINS,
 *   API_PUBLIC_URL or the API's own origin; otherwise 403 `{message}`;
 * - without `Origin`, `Sec-Fetch-Site: cross-site` is refused; a request with neither header
 *   comes from no browser (curl, servers) and carries no ambient cookie risk;
 * - a body must be `application/json` (or `multipart/form-data` on upload routes): the form
 *   encodings a cross-site HTML form can send without a preflight are refused with 415.
 * Routes with their own protection are marked `@CsrfExempt(reason)`.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly allowed: Set<string>;

  constructor(
    env: Env,
    private readonly reflector: Reflector,
  ) {
    this.allowed = new Set(
      [env.FRONTEND_URL, env.API_PUBLIC_URL, ...env.ALLOWED_ORIGINS]
        .filter((u): u is string => Boolean(u))
        .map((u) => new URL(u).origin),
    );
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return true;
    const rule =
      this.reflector.getAllAndOverride<CsrfRule | undefined>(CSRF_KEY, [
        context.getHandler(),
        context.getClass(),
      ]) ?? {};
    if (rule.exempt) return true;

    const origin = req.get('origin');
    if (origin !== undefined) {
      if (!this.allowed.has(origin) && origin !== ownOrigin(req)) {
        throw DomainError.message(403, `requests from origin ${origin} are not allowed`);
      }
    } else if (req.get('sec-fetch-site')?.toLowerCase() === 'cross-site') {
      throw DomainError.message(403, 'cross-site requests are not allowed');
    }

    if (hasBody(req) && !req.is('application/json')) {
      if (!(rule.multipart && req.is('multipart/form-data'))) {
        throw DomainError.unsupportedMediaType(
          `the body must be application/json${rule.multipart ? ' or multipart/form-data' : ''}`,
        );
      }
    }
    return true;
  }
}

const ownOrigin = (req: Request) => `${req.protocol}://${req.get('host')}`;

function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > 0;
  return req.get('transfer-encoding') !== undefined;
}
