import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Request } from 'express';
import {
  AccessContext,
  DocumentStoreRule,
  DomainError,
  FormState,
  PermissionChecker,
  PermissionTarget,
  RecordResolvers,
} from '../../common';
import { Env, isProduction } from '../../config';
import { AccessRow, buildAccessQuery } from './access-query';
import { AccessRepository } from './access.repository';
import {
  builtInRole,
  isPermissionName,
  ORGANIZATION_EQUIVALENT,
  PermissionName,
  SELF_PERMISSIONS,
} from './permissions';

const NO_VERSIONS: Readonly<Record<string, string>> = Object.freeze({});

/** A route that addresses no organization this time (see PermissionTarget.bodyRecord). */
const NO_ORGANIZATION = {
  organizationId: null,
  organization: null,
  memberId: null,
  roleId: null,
  scope: 'self',
  permissions: new Set<string>(),
  versions: NO_VERSIONS,
} as const;

/**
 * Decides every `@Permission(...)` route, in one query: finds the organization (path, addressed
 * record or body), the caller's active membership and role, and grants `all`, `self` or nothing.
 * 404 for a record that does not exist (or is not the path organization's, or belongs to a
 * deleted organization); 403 when the caller may not (404 on routes that hide refusals).
 */
@Injectable()
export class PermissionService implements PermissionChecker {
  constructor(
    private readonly access: AccessRepository,
    private readonly records: RecordResolvers,
    private readonly env: Env,
  ) {}

  async authorize(
    req: Request,
    permission: string,
    target: PermissionTarget,
    form?: FormState,
  ): Promise<void> {
    if (!isPermissionName(permission)) throw new Error(`Unknown permission ${permission}`);
    const userId = req.session.userId as string;
    try {
      req.access =
        permission === 'canReadSite'
          ? await this.siteAdmin(userId)
          : await this.decide(req, userId, permission, target, form);
    } catch (err) {
      if (target.hideForbidden && err instanceof DomainError && err.status === 403) {
        throw DomainError.notFound();
      }
      throw err;
    }
  }

  /**
   * The organizations (not deleted) in which the user is an active member whose role holds the
   * permission, by the same rules as `authorize`: for lists that span the caller's
   * organizations (a route with an optional organization, left out).
   */
  async organizationsPermitting(userId: string, permission: PermissionName): Promise<string[]> {
    const asked = ORGANIZATION_EQUIVALENT[permission] ?? permission;
    const rows = await this.access.activeMemberships(userId);
    return rows
      .filter((r) => permissionsOf(r.role_id, r.role_permissions).has(asked))
      .map((r) => r.organization_id);
  }

  /** The organization's active members with a user account whose role holds the permission. */
  async membersPermitted(organizationId: string, permission: PermissionName) {
    const asked = ORGANIZATION_EQUIVALENT[permission] ?? permission;
    const rows = await this.access.activeUserMembers(organizationId);
    return rows
      .filter((r) => permissionsOf(r.role_id, r.role_permissions).has(asked))
      .map((r) => ({ userId: r.user_id, name: r.name, email: r.email }));
  }

  private async siteAdmin(userId: string): Promise<AccessContext> {
    if (!(await this.access.isSiteAdmin(userId))) {
      throw DomainError.forbidden('site administrators only');
    }
    return {
      userId,
      organizationId: null,
      organization: null,
      memberId: null,
      roleId: null,
      scope: 'all',
      permissions: new Set(['canReadSite']),
      versions: NO_VERSIONS,
    };
  }

  private async decide(
    req: Request,
    userId: string,
    asked: PermissionName,
    target: PermissionTarget,
    form: FormState | undefined,
  ): Promise<AccessContext> {
    const params = (req.params ?? {}) as Record<string, string>;
    const pathOrganization = params.organization ?? null;
    if (pathOrganization !== null) assertUuid(pathOrganization, 'organization');

    const kind = target.record ?? this.recordParamKind(params);
    // An unread form has no fields yet: what needs them is decided once it is read.
    const requestBody = (form === 'unread' ? {} : (req.body ?? {})) as Record<string, unknown>;
    if (form === 'unread' && target.bodyRecord) {
      throw new Error('an upload route cannot address its record by a form field');
    }
    if (
      target.bodyRecord &&
      (requestBody[target.bodyRecord] === undefined || requestBody[target.bodyRecord] === null)
    ) {
      return { ...NO_ORGANIZATION, userId };
    }
    if (
      target.query &&
      target.queryOptional &&
      pathOrganization === null &&
      this.queryValue(req, target.query) === undefined
    ) {
      return { ...NO_ORGANIZATION, userId };
    }
    // The organization in context: the path's, else (routes without one) the query's or body's.
    const fromBody = pathOrganization === null && !target.query && (target.body || !kind);
    const otherOrganization =
      pathOrganization !== null
        ? null
        : target.query
          ? this.queryOrganization(req, target.query, target.queryOptional === true)
          : fromBody
            ? this.bodyOrganization(req, requestBody, target.body ?? 'organization', form)
            : null;
    if (fromBody && otherOrganization === null) {
      // An upload naming its organization in the form alone: until the form is read, only someone
      // who holds the permission in some organization gets that far.
      if (!(await this.organizationsPermitting(userId, asked)).length) {
        throw DomainError.forbidden(`requires ${asked}`);
      }
      return { ...NO_ORGANIZATION, userId };
    }
    const contextOrganization = pathOrganization ?? otherOrganization;
    let id: string;
    let resolver;
    if (kind) {
      const param = target.bodyRecord ?? target.param ?? kind;
      id = target.bodyRecord ? (requestBody[target.bodyRecord] as string) : params[param];
      assertUuid(id, param);
      resolver = this.records.get(kind);
      if (!resolver) throw new Error(`No record resolver for "${kind}"`);
    } else {
      id = contextOrganization!;
    }
    const body = this.bodyRecords(requestBody, target);
    const row = await this.access.decide(
      buildAccessQuery({ resolver, id, pathOrganization: contextOrganization }, userId, body),
    );
    if (!row) throw DomainError.notFound();
    if (row.organization_id !== null && !row.organization_exists) throw DomainError.notFound();
    // A record addressed under another organization (path or body) is not there.
    if (contextOrganization !== null && row.organization_id !== contextOrganization) {
      throw DomainError.notFound();
    }
    body.forEach((b, i) => {
      if (row[`body_${i}`] !== row.organization_id) {
        throw DomainError.notFound(`${b.field} is not a record of this organization`);
      }
    });
    const permission = target.documentStore
      ? this.byDocumentStore(asked, target.documentStore, row)
      : asked;
    return this.grant(userId, permission, row, Boolean(kind), target.orSelf === true);
  }

  /**
   * A document-store route: absent (404, as an unknown path) where the organization's store does
   * not serve it (a data-room organization in production, which has no data room; a suite-only
   * route elsewhere); else the permission its store asks.
   */
  private byDocumentStore(
    asked: PermissionName,
    rule: DocumentStoreRule,
    row: AccessRow,
  ): PermissionName {
    const suite = row.organization_document_store === 'suite';
    if (!suite && (rule.suiteOnly || isProduction(this.env))) {
      throw DomainError.notFound('no such route');
    }
    if (!suite || !rule.suite) return asked;
    if (!isPermissionName(rule.suite)) throw new Error(`Unknown permission ${rule.suite}`);
    return rule.suite;
  }

  private grant(
    userId: string,
    asked: PermissionName,
    row: AccessRow,
    addressesRecord: boolean,
    orSelf: boolean,
  ): AccessContext {
    const isOwner = row.owner_user_id !== null && row.owner_user_id === userId;
    const base = { userId, versions: NO_VERSIONS };
    if (row.organization_id === null) {
      // A personal record (profile, personal address or entity) is its owner's alone.
      if (!isOwner) throw DomainError.forbidden('this record belongs to someone else');
      return {
        ...base,
        organizationId: null,
        organization: null,
        memberId: null,
        roleId: null,
        scope: 'self',
        permissions: new Set([asked]),
      };
    }
    if (!row.member_id || !row.role_id) {
      throw DomainError.forbidden('not a member of this organization');
    }
    const permission = ORGANIZATION_EQUIVALENT[asked] ?? asked;
    const permissions = permissionsOf(row.role_id, row.role_permissions);
    const context = {
      ...base,
      versions: row.versions ?? NO_VERSIONS,
      organizationId: row.organization_id,
      organization: {
        id: row.organization_id,
        type: row.organization_type!,
        currency: row.organization_currency!,
        documentStore: row.organization_document_store!,
      },
      memberId: row.member_id,
      roleId: row.role_id,
      permissions,
    };
    if (permissions.has(permission)) return { ...context, scope: 'all' };
    // "...OrSelf": a member sees their own records; on a list route (no record addressed) the
    // service filters to them.
    const listOfOwn = !addressesRecord && permission === 'canViewCapitalizationOrSelf';
    if ((SELF_PERMISSIONS.has(permission) || orSelf) && (isOwner || listOfOwn)) {
      return { ...context, scope: 'self' };
    }
    throw DomainError.forbidden(`requires ${permission}`);
  }

  /** The first path parameter (other than `organization`) that names a registered record kind. */
  private recordParamKind(params: Record<string, string>): string | undefined {
    return Object.keys(params).find((p) => p !== 'organization' && this.records.get(p));
  }

  private queryValue(req: Request, field: string): unknown {
    return (req.query as Record<string, unknown> | undefined)?.[field];
  }

  /** The query's organization; an optional one that is present must still be a UUID. */
  private queryOrganization(req: Request, field: string, optional: boolean): string {
    const value = this.queryValue(req, field);
    if (!optional && (value === undefined || value === '')) {
      throw DomainError.keyed('invalidFields', `${field} is required`);
    }
    assertUuid(value, field);
    return value;
  }

  /**
   * The body's organization. An upload's may come in the query string instead (decided before
   * the form is read), or in both when equal; null while the form is unread and the query has none.
   */
  private bodyOrganization(
    req: Request,
    body: Record<string, unknown>,
    field: string,
    form: FormState | undefined,
  ): string | null {
    const given = (value: unknown) => value !== undefined && value !== null && value !== '';
    const inBody = body[field];
    const inQuery = form ? this.queryValue(req, field) : undefined;
    if (given(inQuery)) {
      assertUuid(inQuery, field);
      if (given(inBody) && inBody !== inQuery) {
        throw DomainError.badRequest(`${field} of the form and of the query string differ`);
      }
      return inQuery;
    }
    if (!given(inBody)) {
      if (form === 'unread') return null;
      throw DomainError.keyed('invalidFields', `${field} is required`);
    }
    assertUuid(inBody, field);
    return inBody;
  }

  private bodyRecords(body: Record<string, unknown>, target: PermissionTarget) {
    return Object.entries(target.bodyRecords ?? {})
      .filter(([field]) => body[field] !== undefined && body[field] !== null)
      .map(([field, kind]) => {
        const id = body[field];
        assertUuid(id, field);
        const resolver = this.records.get(kind);
        if (!resolver) throw new Error(`No record resolver for "${kind}"`);
        return { field, id, resolver };
      });
  }
}

/** Permissions of a role: built-in ones from the table in code, custom ones from their row. */
function permissionsOf(roleId: string, stored: string[] | null): ReadonlySet<string> {
  const builtIn = builtInRole(roleId);
  if (builtIn) return new Set(builtIn.permissions);
  return new Set((stored ?? []).filter(isPermissionName));
}

function assertUuid(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string' || !isUUID(value)) {
    throw DomainError.badRequest(`${name} must be a UUID`);
  }
}
