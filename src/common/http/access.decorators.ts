import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';

export const ACCESS_KEY = 'ledgerline:access';

export type Access =
  { kind: 'public' } | { kind: 'authenticated' } | { kind: 'permission'; permission: string };

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
export const Permission = (permission: string) =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'permission', permission } satisfies Access),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ description: 'No valid session' }),
    ApiForbiddenResponse({ description: `Requires \`${permission}\` in the organization` }),
  );
