import { getSchemaPath } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError } from '../../common';
import { documentEventObjects, Tx, UnitOfWork, previousAttributes } from '../../events';
import { MemberRepository } from '../members/member.repository';
import { BUILT_IN_ROLES, builtInRole, ROLE_PERMISSIONS } from '../permissions/permissions';
import { RoleDto } from './role.dto';
import { Role } from './role.entity';
import { RoleRepository } from './role.repository';
import { RoleView, toRoleView } from './role.view';

/** A role's events carry the role as its route shows it. */
const role = () => ({ $ref: getSchemaPath(RoleView) });
documentEventObjects({ 'role.created': role, 'role.updated': role, 'role.deleted': role });

@Injectable()
export class RolesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly roles: RoleRepository,
    private readonly members: MemberRepository,
  ) {}

  /** Built-in roles first, then the organization's own. */
  async list(organizationId: string): Promise<RoleView[]> {
    const rows = await this.roles.listFor(organizationId);
    const builtIns = BUILT_IN_ROLES.map((b) => rows.find((r) => r.id === b.id)).filter(
      (r): r is Role => !!r,
    );
    return [...builtIns, ...rows.filter((r) => r.organizationId)].map(toRoleView);
  }

  /** One role: built-in, or the organization's own (the guard checked it is). */
  async get(organizationId: string, roleId: string): Promise<RoleView> {
    const role = await this.roles.findUsable(organizationId, roleId);
    if (!role) throw DomainError.notFound('no such role');
    return toRoleView(role);
  }

  async create(access: AccessContext, dto: RoleDto): Promise<RoleView> {
    const organizationId = access.organizationId!;
    validatePermissions(dto.permissions);
    return this.uow.run(async (tx) => {
      await this.assertNameFree(tx, organizationId, dto.name);
      const role = await this.roles.add(
        { organizationId, name: dto.name, permissions: dto.permissions },
        tx,
      );
      const view = toRoleView(role);
      await tx.record({
        type: 'role.created',
        organizationId,
        actorUserId: access.userId,
        object: view,
        description: `role ${view.name}: created with ${listOf(view.permissions)}`,
      });
      return view;
    });
  }

  async update(access: AccessContext, roleId: string, dto: RoleDto): Promise<RoleView> {
    const organizationId = access.organizationId!;
    validatePermissions(dto.permissions);
    return this.uow.run(async (tx) => {
      const role = await this.lockCustomRole(tx, organizationId, roleId);
      const before = toRoleView(role);
      if (dto.name.toLowerCase() !== role.name.toLowerCase()) {
        await this.assertNameFree(tx, organizationId, dto.name);
      }
      // Permissions are a set: the same ones in another order change nothing (and record no event).
      const samePermissions =
        new Set(dto.permissions).size === new Set(role.permissions).size &&
        dto.permissions.every((p) => role.permissions.includes(p));
      Object.assign(role, {
        name: dto.name,
        permissions: samePermissions ? role.permissions : dto.permissions,
      });
      const view = toRoleView(await this.roles.save(role, tx));
      const previous = previousAttributes(before, view);
      if (Object.keys(previous).length) {
        await tx.record({
          type: 'role.updated',
          organizationId,
          actorUserId: access.userId,
          object: view,
          previous,
          description: `role ${before.name}: ${roleChanges(before, view).join('; ')}`,
        });
      }
      return view;
    });
  }

  remove(access: AccessContext, roleId: string): Promise<void> {
    const organizationId = access.organizationId!;
    return this.uow.run(async (tx) => {
      const role = await this.lockCustomRole(tx, organizationId, roleId);
      if (await this.members.roleInUse(role.id, tx)) {
        throw DomainError.conflict('the role is still assigned to members');
      }
      await this.roles.softDelete(role.id, tx);
      await tx.record({
        type: 'role.deleted',
        organizationId,
        actorUserId: access.userId,
        object: toRoleView(role),
        description: `role ${role.name}: deleted`,
      });
    });
  }

  /** 404 unless the role is this organization's or built-in; 409 for built-in ones. */
  private async lockCustomRole(tx: Tx, organizationId: string, roleId: string): Promise<Role> {
    if (builtInRole(roleId)) {
      throw DomainError.conflict('built-in roles cannot be changed or deleted');
    }
    const role = await this.roles.lockCustom(organizationId, roleId, tx);
    if (!role) throw DomainError.notFound('no such role');
    return role;
  }

  private async assertNameFree(tx: Tx, organizationId: string, name: string) {
    const clash =
      BUILT_IN_ROLES.some((r) => r.name.toLowerCase() === name.toLowerCase()) ||
      Boolean(await this.roles.findByName(organizationId, name, tx));
    if (clash) throw DomainError.conflict(`a role named "${name}" already exists`);
  }
}

function validatePermissions(permissions: string[]) {
  const unknown = permissions.filter((p) => !(ROLE_PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length) {
    throw DomainError.badRequest(
      `permissions: unknown or not grantable to a custom role: ${unknown.join(', ')}`,
    );
  }
}

const listOf = (permissions: string[]) =>
  permissions.length ? `permissions ${permissions.join(', ')}` : 'no permissions';

/** "renamed from Auditor; added permission canEdit; removed permission canViewMember". */
function roleChanges(before: RoleView, after: RoleView): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`renamed to ${after.name}`);
  for (const p of after.permissions.filter((p) => !before.permissions.includes(p))) {
    changes.push(`added permission ${p}`);
  }
  for (const p of before.permissions.filter((p) => !after.permissions.includes(p))) {
    changes.push(`removed permission ${p}`);
  }
  return changes;
}
