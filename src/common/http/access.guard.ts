import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import './session.types';
import { DomainError } from '../errors/domain-error';
import { Access, ACCESS_KEY, PermissionTarget } from './access.decorators';

/** Decides a `@Permission(...)` route; provided by the organizations module. */
export interface PermissionChecker {
  /** Throws DomainError (403/404) when refused; sets `req.access` when granted. */
  authorize(req: Request, permission: string, target: PermissionTarget): Promise<void>;
}
export const PERMISSION_CHECKER = Symbol('PERMISSION_CHECKER');

/**
 * The global guard: deny by default. A route without `@Public()`, `@Authenticated()` or
 * `@Permission()` is refused (and a test walks the route table so none ships that way).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);

  constructor(
    private readonly reflector: Reflector,
    @Inject(PERMISSION_CHECKER) private readonly checker: PermissionChecker,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const req = context.switchToHttp().getRequest<Request>();
    if (!access) {
      this.logger.error(`Route ${req.method} ${req.route?.path} declares no access rule: refused`);
      throw DomainError.forbidden('this route declares no access rule');
    }
    if (access.kind === 'public') return true;
    if (!req.session?.userId) throw DomainError.unauthorized('no valid session');
    if (access.kind === 'authenticated') return true;
    await this.checker.authorize(req, access.permission, access.target);
    return true;
  }
}
