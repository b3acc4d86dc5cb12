import { ApiProperty } from '@nestjs/swagger';
import { builtInRole } from '../permissions/permissions';
import { Role } from './role.entity';

/** A role: built-in (Owner, Admin, Editor, Viewer, Shareholder ...) or an organization's own. */
export class RoleView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  name: string;
  /** Built-in roles are the same in every organization and cannot be changed. */
  builtIn: boolean;
  /** The organization of a custom role; null for a built-in one. */
  @ApiProperty({ type: String, format: 'uuid' })
  organization: string | null;
  /** Permission names of spec section 4. */
  permissions: string[];
}

export const toRoleView = (r: Role): RoleView => {
  const builtIn = builtInRole(r.id);
  return {
    id: r.id,
    name: builtIn?.name ?? r.name,
    builtIn: !!builtIn,
    organization: r.organizationId,
    permissions: [...(builtIn?.permissions ?? r.permissions)],
  };
};
