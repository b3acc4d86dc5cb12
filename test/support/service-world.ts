import { randomUUID } from 'node:crypto';
import type { AccessContext } from '../../src/common';
import { MembersService } from '../../src/organizations/members/members.service';
import { OrganizationsService } from '../../src/organizations/organizations/organizations.service';
import { BUILT_IN_ROLES, OWNER_ROLE_ID } from '../../src/organizations/permissions/permissions';
import type { ServiceTest } from './service';
import { createUser } from './users';

/**
 * What service tests build their worlds from (the e2e tests' are in world.ts): users, and
 * organizations made by the services, with the AccessContext a request of their members carries.
 */

/** The AccessContext a member with a built-in `roleId` has in a corporation in USD. */
export function accessContext(
  userId: string,
  organizationId: string,
  roleId: string = OWNER_ROLE_ID,
  memberId: string = randomUUID(),
): AccessContext {
  const builtIn = BUILT_IN_ROLES.find((r) => r.id === roleId);
  return {
    userId,
    organizationId,
    organization: { id: organizationId, type: 'corporation', currency: 'USD' },
    memberId,
    roleId,
    scope: 'all',
    permissions: new Set(builtIn?.permissions ?? []),
    versions: {},
  };
}

/** An organization made by OrganizationsService, its user (a new one by default) its Owner. */
export async function createOrganization(
  s: ServiceTest,
  name = `Org ${randomUUID().slice(0, 6)}`,
  userId?: string,
) {
  const user = userId ?? (await createUser(s)).user.id;
  return s.get<OrganizationsService>(OrganizationsService).create(user, { name });
}

/** A new user, an organization they own, and the AccessContext of their Owner member. */
export async function ownedOrganization(s: ServiceTest, name?: string) {
  const { user } = await createUser(s);
  const org = await createOrganization(s, name, user.id);
  const members = s.get<MembersService>(MembersService);
  const [ownerMember] = JSON.parse(await members.list(accessContext(user.id, org.id))) as {
    id: string;
  }[];
  return { user, org, owner: accessContext(user.id, org.id, OWNER_ROLE_ID, ownerMember.id) };
}
