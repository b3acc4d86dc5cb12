import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { pinnedOrganization } from './organization-pin';
import './session.types';
import { DomainError } from '../errors/domain-error';
import { clientIp } from './client-ip';
import { MACHINE_FAILURES, MachineKind, MachineVerifiers } from './machine-access';
import { TokenFailureThrottle } from './token-failures';
import {
  Access,
  ACCESS_KEY,
  MULTIPART_KEY,
  MultipartOptions,
  PermissionTarget,
} from './access.decorators';

/**
 * Where an upload route's form stands when its permission is decided: `unread` by the guard (the
 * form fields are not known yet: what needs them waits), `read` once `@Multipart` has parsed it
 * (the whole decision again, with them).
 */
export type FormState = 'unread' | 'read';

/** Decides a `@Permission(...)` route; provided by the organizations module. */
export interface PermissionChecker {
  /** Throws DomainError (403/404) when refused; sets `req.access` when granted. */
  authorize(
    req: Request,
    permission: string,
    target: PermissionTarget,
    form?: FormState,
  ): Promise<void>;
}
export const PERMISSION_CHECKER = Symbol('PERMISSION_CHECKER');

/**
 * The global guard: deny by default. A route without `@Public()`, `@Authenticated()`,
 * `@Permission()` or `@Machine()` is refused (and a test walks the route table so none ships that
 * way).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);

  constructor(
    private readonly reflector: Reflector,
    @Inject(PERMISSION_CHECKER) private readonly checker: PermissionChecker,
    private readonly machines: MachineVerifiers,
    @Inject(MACHINE_FAILURES) private readonly failures: TokenFailureThrottle,
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
    if (access.kind === 'machine') return this.machine(req, access.machine);
    if (!req.session?.userId) throw DomainError.unauthorized('no valid session');
    if (access.kind === 'authenticated') return true;
    // An upload is decided before a byte of its form is read (`@Multipart` reads it afterwards).
    const upload = this.reflector.getAllAndOverride<MultipartOptions | undefined>(MULTIPART_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const form = upload && req.is('multipart/form-data') ? 'unread' : undefined;
    await this.checker.authorize(req, access.permission, access.target, form);
    const pinned = pinnedOrganization(req);
    if (pinned !== undefined && req.access?.organizationId !== pinned) {
      throw DomainError.notFound();
    }
    return true;
  }

  /**
   * A machine caller's credential, by its kind's verifier; a session is neither needed nor
   * enough. Failed checks are counted per kind and client IP, and an address that has used up its
   * failures is refused (429) before its credential is looked at, so a guess that hits is not told
   * apart. A kind without a verifier (`apiKey`: none is issued yet) refuses everyone.
   */
  private async machine(req: Request, kind: MachineKind): Promise<true> {
    const verifier = this.machines.get(kind);
    if (!verifier) {
      throw DomainError.unauthorized(
        kind === 'apiKey'
          ? 'API keys are not accepted yet'
          : `no ${kind} credential is accepted here`,
      );
    }
    const caller = `${kind}:${clientIp(req)}`;
    await this.failures.assertAllowed(caller);
    if (await verifier.accepts(req)) return true;
    await this.failures.recordFailure(caller);
    throw DomainError.unauthorized(verifier.refusal);
  }
}
