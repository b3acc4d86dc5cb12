import { builtInRole } from '../permissions/permissions';
import { Role } from './role.entity';

export interface RoleView {
  id: string;
  name: string;
  builtIn: boolean;
  organization: string | null;
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
