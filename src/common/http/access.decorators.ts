import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';

export const ACCESS_KEY = 'ledgerline:access';

export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'permission'; permission: string; target: PermissionTarget };

/**
 * Where the guard finds the organization a permission applies to. By default: the
 * `:organization` path parameter, or the record named by a path parameter whose name is a
 * registered record kind (`:member`, `:role`, ...). Override when the names differ
 * (`{record: 'shareholding', param: 'holding'}`) or when the organization comes in the body.
 */
export interface PermissionTarget {
  /** Record kind of the resolver to use (see RecordResolvers). */
  record?: string;
  /** Path parameter holding the record id; defaults to the record kind. */
  param?: string;
  /** Body field holding the organization id (routes without one in the path). */
  body?: string;
}

/** Anyone may call this route, with or without a session. */
export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies Access);

/** Any logged-in user may call this route; the service decides the rest. */
export const Authenticated = () =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'authenticated' } satisfies Access),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ description: 'No valid session' }),
  );

/**
 * The caller needs this permission of spec section 4 in the organization the route addresses
 * (found from the path, the addressed record or the body by the permission guard).
 */
export const Permission = (permission: string, target: PermissionTarget = {}) =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'permission', permission, target } satisfies Access),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ description: 'No valid session' }),
    ApiForbiddenResponse({ description: `Requires \`${permission}\` in the organization` }),
  );
