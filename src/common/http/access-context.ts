import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import './session.types';

/** The organization in context as the permission guard read it, with what writes check against. */
export interface OrganizationInContext {
  id: string;
  /** `corporation` or `llc` (the organizations module keeps the list): whether units may be fractional. */
  type: string;
  /** ISO 4217: the default of amounts given without one. */
  currency: string;
  /**
   * `dataRoom` or `suite` (the organizations module keeps the list): which backend serves its
   * documents. Always set by the guard; contexts made by hand for work without a request (an
   * onboarding build, a hook's actor) may leave it out.
   */
  documentStore?: string;
}

/**
 * What the permission guard resolved for this request: the caller, the organization and whether
 * the caller sees everything (`all`) or only their own records (`self`). Services filter lists in
 * the query by it; nothing reads the caller's membership, nor the organization's type and
 * currency, again.
 */
export interface AccessContext {
  userId: string;
  organizationId: string | null;
  /** Set with `organizationId`, read in the same query. */
  organization: OrganizationInContext | null;
  memberId: string | null;
  roleId: string | null;
  scope: 'all' | 'self';
  /** Every permission the caller's role holds in the organization. */
  permissions: ReadonlySet<string>;
  /** Versions of the organization's cached resources, read in the same query as the access. */
  versions: Readonly<Record<string, string>>;
}

declare module 'express' {
  interface Request {
    access?: AccessContext;
  }
}

/** The AccessContext of a `@Permission(...)` route. */
export const Access = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AccessContext => {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!req.access) throw new Error('Access context is only set on @Permission routes');
    return req.access;
  },
);

/** The logged-in user's id (any authenticated route). */
export const CurrentUserId = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string => {
    const req = ctx.switchToHttp().getRequest<Request>();
    return req.session.userId as string;
  },
);
