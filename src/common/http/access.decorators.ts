import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiSecurity,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Env } from '../../config';
import { MACHINE_SECURITY, MachineKind } from './machine-access';

export const ACCESS_KEY = 'ledgerline:access';

export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'permission'; permission: string; target: PermissionTarget }
  | { kind: 'machine'; machine: MachineKind };

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
  /**
   * Body field holding the organization id (routes without one in the path). On an upload route
   * (`@Multipart`) the same name may be given in the query string instead, so that the permission
   * is decided before the form is read; in both, they must be equal (else 400).
   */
  body?: string;
  /** Query parameter holding the organization id (lists of routes without one in the path). */
  query?: string;
  /**
   * With `query`: the parameter may be left out. The route then addresses no organization and a
   * session is enough (`organizationId` null in the AccessContext); the service lists only what
   * the caller may see, through `OrganizationsDirectory.organizationsPermitting`.
   */
  queryOptional?: boolean;
  /**
   * Body field holding the id of the addressed `record` (instead of a path parameter). When the
   * body has no such field the route addresses no organization, and a session is enough.
   */
  bodyRecord?: string;
  /**
   * The person the addressed record belongs to (a holding's holder) is allowed too, whatever their
   * role: an option holder asking to exercise.
   */
  orSelf?: boolean;
  /**
   * Body fields holding ids of records that must belong to the same organization (field → record
   * kind): a transfer's `shareholding`, an assignment's `member`. Another organization's id is 404.
   */
  bodyRecords?: Record<string, string>;
  /** Refusals answer 404 instead of 403, so record ids cannot be probed. */
  hideForbidden?: boolean;
  /**
   * A route of the organization's document store (spec 4.4), decided by the store the access
   * query reads: in production a data-room organization's answer 404 (the data room is disabled
   * there), a suite organization's are served.
   */
  documentStore?: DocumentStoreRule;
}

/** How a document-store route's permission depends on the organization's store. */
export interface DocumentStoreRule {
  /** The permission asked of suite organizations instead of the declared one (the spec's suite table). */
  suite?: string;
  /** Only suite organizations have the route: any other answers 404. */
  suiteOnly?: boolean;
}

/**
 * Anyone may call this route, with or without a session or any credential. A route for a machine
 * caller with a secret of its own is `@Machine(kind)`, never this.
 */
export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies Access);

/**
 * A machine caller of this kind may call this route: the access guard asks the kind's registered
 * verifier (no session is looked at), and counts failed checks per client IP (past
 * TOKEN_FAILURES_PER_IP: 429 for that address, a right credential too). `apiKey` has no verifier
 * yet, so its routes refuse every call (401). The route documents its 401 and 429 in its own shape
 * (`completeDocument` adds the one error body's where it does not).
 */
export const Machine = (kind: MachineKind) =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'machine', machine: kind } satisfies Access),
    ApiExtension('x-machine', kind),
    // Alternatives: any one of the kind's schemes is enough.
    ...MACHINE_SECURITY[kind].map((scheme) => ApiSecurity(scheme)),
  );

/** Any logged-in user may call this route; the service decides the rest. */
export const Authenticated = () =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'authenticated' } satisfies Access),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ description: 'No valid session `{error, key, message}`' }),
  );

/** The one permission that is the site's rather than an organization's (site administrators). */
const SITE_PERMISSION = 'canReadSite';

/**
 * The caller needs this permission of spec section 4 in the organization the route addresses
 * (found from the path, the addressed record or the body by the permission guard).
 */
export const Permission = (permission: string, target: PermissionTarget = {}) =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'permission', permission, target } satisfies Access),
    // Integrators read it in the document; completeDocument names it in the description.
    ApiExtension('x-permission', permission),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ description: 'No valid session `{error, key, message}`' }),
    ...(permission === SITE_PERMISSION
      ? // Site-wide: no organization to look up, so nothing answers 404.
        [ApiForbiddenResponse({ description: 'Site administrators only `{error, message}`' })]
      : [
          ApiForbiddenResponse({
            description: `Requires \`${permission}\` in the organization \`{error, message}\``,
          }),
          ApiNotFoundResponse({
            description:
              'The organization or record does not exist, or is not the path organization’s',
          }),
        ]),
  );

export const CSRF_KEY = 'ledgerline:csrf';

export interface CsrfRule {
  /** The route keeps its own rules (identity-provider form post, provider webhooks). */
  exempt?: string;
  /** The route takes `multipart/form-data` bodies (file uploads). */
  multipart?: boolean;
}

/** The route is not subject to the app-wide cross-site check; `reason` says what protects it. */
export const CsrfExempt = (reason: string) =>
  applyDecorators(
    SetMetadata(CSRF_KEY, { exempt: reason } satisfies CsrfRule),
    // completeDocument documents the cross-site refusals (403, 415) of every other write.
    ApiExtension('x-csrf-exempt', reason),
  );

/**
 * The route accepts a `multipart/form-data` body besides JSON. Only through `@Multipart(...)`,
 * which also reads the form once the guards have let the request through.
 */
export const MultipartBody = () => SetMetadata(CSRF_KEY, { multipart: true } satisfies CsrfRule);

export const MULTIPART_KEY = 'ledgerline:multipart';

/** How an upload route's form is read (see `@Multipart`). */
export interface MultipartOptions {
  /** The largest file, in bytes (from the environment, or fixed). */
  maxFileBytes: (env: Env) => number;
  /** Files one request may carry; 1 unless said. */
  maxFiles?: number;
}

export const RAW_BODY_KEY = 'ledgerline:raw-body';

/**
 * How a `@RawBody` route takes its body:
 * - `bytes`: `req.body` is the exact bytes as a Buffer (within the app's body limit, 413 past
 *   it), read before the guards: what a signature is computed over;
 * - `stream`: nothing is read; the route reads the request stream itself, after its guards and
 *   within its own limit (the gateway hooks' HOOKS_MAX_BODY_BYTES).
 */
export type RawBodyMode = 'bytes' | 'stream';

/**
 * The route takes its body as a machine sent it: the app's JSON and form parsers leave it alone
 * (see `RawBodyMode`). A machine caller carries no cookie and is no browser, so the session and
 * CORS layers leave the route alone too (`markRawBodyRoutes`). On a controller: all its routes.
 */
export const RawBody = (mode: RawBodyMode = 'bytes') => SetMetadata(RAW_BODY_KEY, mode);
