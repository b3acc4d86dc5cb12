import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import type { PermissionTarget } from '../../common/http/access.decorators';
import { PermissionChecker } from '../../common/http/access.guard';
import { Member } from '../members/member.entity';
import { Organization } from '../organizations/organization.entity';
import { Role } from '../roles/role.entity';
import { SiteAdmin } from '../site-admin/site-admin.entity';
import { AccessContext } from './access-context';
import { RecordResolvers, RecordScope } from './record-resolvers';
import { builtInRole, isPermissionName, PermissionName, SELF_PERMISSIONS } from './permissions';

/**
 * Decides every `@Permission(...)` route: finds the organization (path, addressed record or
 * body), the caller's active membership and role, and grants `all`, `self` or nothing.
 * 404 for a record that does not exist (or is not the path organization's), 403 otherwise.
 */
@Injectable()
export class PermissionService implements PermissionChecker {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly records: RecordResolvers,
  ) {}

  async authorize(req: Request, permission: string, target: PermissionTarget): Promise<void> {
    if (!isPermissionName(permission)) throw new Error(`Unknown permission ${permission}`);
    const userId = req.session.userId as string;
    if (permission === 'canReadSite') {
      if (!(await this.isSiteAdmin(userId))) throw HttpError.forbidden();
      req.access = {
        userId,
        organizationId: null,
        memberId: null,
        roleId: null,
        scope: 'all',
        permissions: new Set([permission]),
      };
      return;
    }
    const scope = await this.resolveTarget(req, target);
    req.access = await this.decide(userId, permission, scope);
  }

  /** The same decision for services that learn the organization late (multipart bodies). */
  async check(
    userId: string,
    permission: PermissionName,
    organizationId: string,
  ): Promise<AccessContext> {
    if (!(await this.organizationExists(organizationId))) throw HttpError.notFound();
    return this.decide(userId, permission, { organizationId });
  }

  async isSiteAdmin(userId: string): Promise<boolean> {
    return this.dataSource.getRepository(SiteAdmin).exists({ where: { userId } });
  }

  /** Permissions of a role: built-in ones from the table in code, custom ones from their row. */
  async permissionsOf(roleId: string): Promise<ReadonlySet<PermissionName>> {
    const builtIn = builtInRole(roleId);
    if (builtIn) return new Set(builtIn.permissions);
    const role = await this.dataSource.getRepository(Role).findOneBy({ id: roleId });
    return new Set((role?.permissions ?? []).filter(isPermissionName));
  }

  private async decide(
    userId: string,
    asked: PermissionName,
    scope: RecordScope,
  ): Promise<AccessContext> {
    // An organization's own address is changed by those who may edit the organization.
    const permission: PermissionName =
      asked === 'canUpdateRecord(Addresses)' && scope.organizationId
        ? 'canEditOrganization'
        : asked;
    const isOwner = !!scope.ownerUserId && scope.ownerUserId === userId;
    if (!scope.organizationId) {
      if (!isOwner || !SELF_PERMISSIONS.has(permission)) throw HttpError.forbidden();
      return {
        userId,
        organizationId: null,
        memberId: null,
        roleId: null,
        scope: 'self',
        permissions: new Set([permission]),
      };
    }
    const member = await this.dataSource
      .getRepository(Member)
      .findOneBy({ organizationId: scope.organizationId, userId, status: 'active' });
    if (!member) throw HttpError.forbidden();
    const permissions = await this.permissionsOf(member.roleId);
    const base = {
      userId,
      organizationId: scope.organizationId,
      memberId: member.id,
      roleId: member.roleId,
      permissions,
    };
    if (permissions.has(permission)) return { ...base, scope: 'all' };
    // "...OrSelf": a member sees their own records; on a list route (no record) the service
    // filters to them.
    const listOfOwn =
      permission === 'canViewCapitalizationOrSelf' && scope.ownerUserId === undefined;
    if (SELF_PERMISSIONS.has(permission) && (isOwner || listOfOwn))
      return { ...base, scope: 'self' };
    throw HttpError.forbidden();
  }

  private async resolveTarget(req: Request, target: PermissionTarget): Promise<RecordScope> {
    const params = (req.params ?? {}) as Record<string, string>;
    const pathOrg = params.organization;
    if (pathOrg !== undefined) assertUuid(pathOrg, 'organization');

    const kind = target.record ?? this.recordParamKind(params);
    if (kind) {
      const id = params[target.param ?? kind];
      assertUuid(id, target.param ?? kind);
      const resolver = this.records.get(kind);
      if (!resolver) throw new Error(`No record resolver for "${kind}"`);
      const scope = await resolver(id, req);
      if (!scope) throw HttpError.notFound();
      // A record addressed under another organization's path is not there.
      if (pathOrg !== undefined && scope.organizationId !== pathOrg) throw HttpError.notFound();
      return scope;
    }
    if (pathOrg !== undefined) {
      if (!(await this.organizationExists(pathOrg))) throw HttpError.notFound();
      return { organizationId: pathOrg };
    }
    const field = target.body ?? 'organization';
    const fromBody = (req.body as Record<string, unknown> | undefined)?.[field];
    if (fromBody === undefined || fromBody === null || fromBody === '') {
      throw HttpError.badRequest(`${field} is required`);
    }
    assertUuid(fromBody, field);
    if (!(await this.organizationExists(fromBody as string))) throw HttpError.notFound();
    return { organizationId: fromBody as string };
  }

  /** The first path parameter (other than `organization`) that names a registered record kind. */
  private recordParamKind(params: Record<string, string>): string | undefined {
    return Object.keys(params).find((p) => p !== 'organization' && this.records.get(p));
  }

  private organizationExists(id: string) {
    return this.dataSource.getRepository(Organization).exists({ where: { id } });
  }
}

function assertUuid(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string' || !isUUID(value))
    throw HttpError.badRequest(`${name} must be a UUID`);
}
