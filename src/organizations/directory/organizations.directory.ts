import { Injectable } from '@nestjs/common';
import { Not } from 'typeorm';
import { ownedSql, type InTransaction } from '../../database';
import {
  EntityMembershipRow,
  MemberFactsRow,
  MemberListingRow,
  MemberRepository,
} from '../members/member.repository';
import { OrganizationType } from '../organizations/organization.entity';
import { OrganizationView, toOrganizationView } from '../organizations/organization.view';
import { OrganizationRepository } from '../organizations/organization.repository';
import { PermissionService } from '../permissions/permission.service';
import { roleName } from '../roles/role-lookup';
import { RoleRepository } from '../roles/role.repository';
import type { PermissionName } from '../permissions/permissions';

export interface OrganizationFacts {
  id: string;
  name: string;
  legalName: string | null;
  /** ISO 3166-1 alpha-2, when recorded. */
  country: string | null;
  type: OrganizationType;
  currency: string;
  /** The organization's own legal entity (the one it is billed as). */
  entityId: string;
  /** The user who created it (null for an organization made by an import or an operator). */
  createdBy: string | null;
  created: Date;
}

export type MemberFacts = MemberFactsRow;
export type MemberListing = MemberListingRow;
export type EntityMembership = EntityMembershipRow;

/** What other modules may read of organizations and their members. */
@Injectable()
export class OrganizationsDirectory {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly permissions: PermissionService,
    private readonly roles: RoleRepository,
  ) {}

  /** The user's active member record here, as others know them: its name and its role's name. */
  async memberLabel(
    organizationId: string,
    userId: string,
  ): Promise<{ name: string; role: string | null } | null> {
    const [member] = await this.members.findManyBy({ organizationId, userId, status: 'active' });
    if (!member) return null;
    const role = await this.roles.findUsable(organizationId, member.roleId);
    return { name: member.name, role: role && roleName(role) };
  }

  /**
   * The organizations in which the user is an active member whose role holds the permission (the
   * permission guard's own rules): lists across the caller's organizations.
   */
  organizationsPermitting(userId: string, permission: PermissionName): Promise<string[]> {
    return this.permissions.organizationsPermitting(userId, permission);
  }

  /**
   * The members (with a user account) whose role holds the permission, for notices to those who
   * may act on them.
   */
  membersPermitted(organizationId: string, permission: PermissionName) {
    return this.permissions.membersPermitted(organizationId, permission);
  }

  /** The organization as `GET /v1/organization/:organization` answers it; null when deleted. */
  async organizationView(id: string): Promise<OrganizationView | null> {
    const o = await this.organizations.find(id);
    return o && toOrganizationView(o);
  }

  /** The organization unless deleted; in the caller's transaction when given (an export's snapshot). */
  async organization(id: string, tx?: InTransaction): Promise<OrganizationFacts | null> {
    const o = await this.organizations.find(id, tx);
    return (
      o && {
        id: o.id,
        name: o.name,
        legalName: o.legalName,
        country: o.country,
        type: o.type,
        currency: o.currency,
        entityId: o.entityId,
        createdBy: o.createdBy,
        created: o.created,
      }
    );
  }

  /** The organization whose own entity this is (billing finds it by its customer's reference). */
  async organizationOfEntity(entityId: string): Promise<string | null> {
    return (await this.organizations.findByEntity(entityId))?.id ?? null;
  }

  /** Those of the organizations that are not deleted. */
  liveOrganizations(ids: string[]): Promise<string[]> {
    return this.organizations.live(ids);
  }

  /**
   * Locks the organization's row until the transaction ends: whatever inserts a row referring to
   * it (every write of its cap table, every new member) waits meanwhile. False when there is no
   * such organization (or it is deleted).
   */
  async lock(tx: InTransaction, id: string): Promise<boolean> {
    return (await this.organizations.lock(id, tx)) !== null;
  }

  /** A current (active or invited) member of the organization. */
  async member(organizationId: string, memberId: string): Promise<MemberFacts | null> {
    const m = await this.members.find(organizationId, memberId);
    return m && facts(m);
  }

  /**
   * Members by id, removed ones included (holdings outlive membership); in the caller's
   * transaction when given (an export's snapshot).
   */
  async membersById(
    organizationId: string,
    ids: string[],
    tx?: InTransaction,
  ): Promise<Map<string, MemberFacts>> {
    if (!ids.length) return new Map();
    const rows = await this.members.factsByIds(organizationId, ids, tx);
    return new Map(rows.map((m) => [m.id, m]));
  }

  /**
   * Members by id, removed ones included, in name order (bytewise), a batch at a time through a
   * cursor of the caller's transaction (the OCF export's snapshot: thousands of stakeholders).
   */
  membersByName(
    tx: InTransaction,
    organizationId: string,
    ids: string[],
  ): AsyncGenerator<MemberListing[]> {
    return this.members.listingByName(tx, organizationId, ids);
  }

  /** The user's current member records, in every organization that is not deleted. */
  memberIdsOfUser(userId: string): Promise<string[]> {
    return this.members.idsOfUser(userId);
  }

  /** The entity's current member records, by organization name (organizations not deleted). */
  membershipsOfEntity(entityId: string): Promise<EntityMembership[]> {
    return this.members.membershipsOfEntity(entityId);
  }

  /** The organization's current members. */
  async currentMembers(organizationId: string): Promise<MemberFacts[]> {
    const rows = await this.members.findManyBy({ organizationId, status: Not('removed') });
    return rows.map(facts);
  }
}

const facts = (m: MemberFacts): MemberFacts => ({
  id: m.id,
  organizationId: m.organizationId,
  userId: m.userId,
  entityId: m.entityId,
  name: m.name,
  email: m.email,
  status: m.status,
});

/**
 * SQL giving the user of a member (for record resolvers of records held by members: the holder
 * is the record's owner for "self" permissions). `memberExpression` is a column of the embedding
 * query.
 */
export const memberUserSql = (memberExpression: string) =>
  ownedSql('organizations', `(SELECT mu.user_id FROM member mu WHERE mu.id = ${memberExpression})`);

/**
 * SQL listing the ids of a user's current member records in any organization (record resolvers:
 * the grantee of a holding). `userExpression` is a column or parameter of the embedding query.
 */
export const userMembersSql = (userExpression: string) =>
  ownedSql(
    'organizations',
    `(SELECT um.id FROM member um WHERE um.user_id = ${userExpression} AND um.status <> 'removed')`,
  );

/** SQL listing the member ids of a user in an organization (self-scoped lists). */
export const membersOfUserSql = (organizationExpression: string, userExpression: string) =>
  ownedSql(
    'organizations',
    `(SELECT mo.id FROM member mo WHERE mo.organization_id = ${organizationExpression}
       AND mo.user_id = ${userExpression} AND mo.status <> 'removed')`,
  );
