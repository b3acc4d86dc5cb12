import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common';
import { InTransaction } from '../../database';
import { BUILT_IN_ROLES, builtInRole } from '../permissions/permissions';
import { Role } from './role.entity';
import { RoleRepository } from './role.repository';

/** A role's display name: built-in names come from the permission table. */
export const roleName = (role: Pick<Role, 'id' | 'name'>) =>
  builtInRole(role.id)?.name ?? role.name;

/** Finds the role a request names, by id or by name (built-in or the organization's own). */
@Injectable()
export class RoleLookup {
  constructor(private readonly roles: RoleRepository) {}

  /** 400 (naming the field `role`) when the organization has no such role. */
  async resolve(tx: InTransaction, organizationId: string, ref: string): Promise<Role> {
    const builtIn = BUILT_IN_ROLES.find(
      (r) =>
        r.id === ref || r.name.toLowerCase() === ref.toLowerCase() || r.key === ref.toLowerCase(),
    );
    const role = builtIn
      ? await this.roles.findUsable(organizationId, builtIn.id, tx)
      : ((await this.roles.findUsable(organizationId, ref, tx)) ??
        (await this.roles.findByName(organizationId, ref, tx)));
    if (!role || role.deletedAt) {
      throw DomainError.badRequest(`role "${ref}" does not exist in this organization`, {
        body: { field: 'role' },
      });
    }
    return role;
  }
}
