import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { OutboxService, previousAttributes } from '../../common/events/outbox.service';
import { Member } from '../members/member.entity';
import { AccessContext } from '../permissions/access-context';
import { BUILT_IN_ROLES, builtInRole, ROLE_PERMISSIONS } from '../permissions/permissions';
import { RoleDto } from './role.dto';
import { Role } from './role.entity';
import { RoleView, toRoleView } from './role.view';

@Injectable()
export class RolesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** Built-in roles first, then the organization's own. */
  async list(organizationId: string): Promise<RoleView[]> {
    const rows = await this.dataSource.getRepository(Role).find({
      where: [
        { organizationId: IsNull(), id: In(BUILT_IN_ROLES.map((r) => r.id)) },
        { organizationId },
      ],
      order: { created: 'ASC' },
    });
    const builtIns = BUILT_IN_ROLES.map((b) => rows.find((r) => r.id === b.id)).filter(
      (r): r is Role => !!r,
    );
    return [...builtIns, ...rows.filter((r) => r.organizationId)].map(toRoleView);
  }

  create(access: AccessContext, dto: RoleDto): Promise<RoleView> {
    const organizationId = access.organizationId!;
    validatePermissions(dto.permissions);
    return this.dataSource.transaction(async (m) => {
      await this.assertNameFree(m, organizationId, dto.name);
      const role = await m.save(
        m.create(Role, { organizationId, name: dto.name, permissions: dto.permissions }),
      );
      const view = toRoleView(role);
      await this.outbox.record(m, {
        type: 'role.created',
        organizationId,
        actorUserId: access.userId,
        object: view,
      });
      return view;
    });
  }

  update(access: AccessContext, roleId: string, dto: RoleDto): Promise<RoleView> {
    const organizationId = access.organizationId!;
    validatePermissions(dto.permissions);
    return this.dataSource.transaction(async (m) => {
      const role = await this.lockCustomRole(m, organizationId, roleId);
      const before = toRoleView(role);
      if (dto.name.toLowerCase() !== role.name.toLowerCase())
        await this.assertNameFree(m, organizationId, dto.name);
      Object.assign(role, { name: dto.name, permissions: dto.permissions });
      const view = toRoleView(await m.save(role));
      const previous = previousAttributes(before, view);
      if (Object.keys(previous).length) {
        await this.outbox.record(m, {
          type: 'role.updated',
          organizationId,
          actorUserId: access.userId,
          object: view,
          previous,
        });
      }
      return view;
    });
  }

  remove(access: AccessContext, roleId: string): Promise<void> {
    const organizationId = access.organizationId!;
    return this.dataSource.transaction(async (m) => {
      const role = await this.lockCustomRole(m, organizationId, roleId);
      const inUse = await m
        .getRepository(Member)
        .createQueryBuilder('mb')
        .setLock('pessimistic_read')
        .where("mb.role_id = :roleId AND mb.status <> 'removed'", { roleId })
        .getExists();
      if (inUse) throw HttpError.conflict('the role is still assigned to members');
      await m.softDelete(Role, role.id);
      await this.outbox.record(m, {
        type: 'role.deleted',
        organizationId,
        actorUserId: access.userId,
        object: toRoleView(role),
      });
    });
  }

  /** 404 unless the role is this organization's or built-in; 409 for built-in ones. */
  private async lockCustomRole(
    m: EntityManager,
    organizationId: string,
    roleId: string,
  ): Promise<Role> {
    if (builtInRole(roleId))
      throw HttpError.conflict('built-in roles cannot be changed or deleted');
    const role = await m.findOne(Role, {
      where: { id: roleId, organizationId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!role) throw HttpError.notFound();
    return role;
  }

  private async assertNameFree(m: EntityManager, organizationId: string, name: string) {
    const clash =
      BUILT_IN_ROLES.some((r) => r.name.toLowerCase() === name.toLowerCase()) ||
      (await m
        .getRepository(Role)
        .createQueryBuilder('r')
        .where('r.organization_id = :organizationId AND lower(r.name) = lower(:name)', {
          organizationId,
          name,
        })
        .getExists());
    if (clash) throw HttpError.conflict(`a role named "${name}" already exists`);
  }
}

function validatePermissions(permissions: string[]) {
  const unknown = permissions.filter((p) => !(ROLE_PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length) throw HttpError.badRequest(`unknown permissions: ${unknown.join(', ')}`);
}
