import { Injectable } from '@nestjs/common';
import { Not } from 'typeorm';
import { MemberFactsRow, MemberRepository } from '../members/member.repository';
import { OrganizationType } from '../organizations/organization.entity';
import { OrganizationRepository } from '../organizations/organization.repository';
import { PermissionService } from '../permissions/permission.service';
import type { PermissionName } from '../permissions/permissions';

export interface OrganizationFacts {
  id: string;
  name: string;
  type: OrganizationType;
  currency: string;
}

export type MemberFacts = MemberFactsRow;

/** What other modules may read of organizations and their members. */
@Injectable()
export class OrganizationsDirectory {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly permissions: PermissionService,
  ) {}

  /**
   * The organizations in which the user is an active member whose role holds the permission (the
   * permission guard's own rules): lists across the caller's organizations.
   */
  organizationsPermitting(userId: string, permission: PermissionName): Promise<string[]> {
    return this.permissions.organizationsPermitting(userId, permission);
  }

  async organization(id: string): Promise<OrganizationFacts | null> {
    const o = await this.organizations.find(id);
    return o && { id: o.id, name: o.name, type: o.type, currency: o.currency };
  }

  /** A current (active or invited) member of the organization. */
  async member(organizationId: string, memberId: string): Promise<MemberFacts | null> {
    const m = await this.members.find(organizationId, memberId);
    return m && facts(m);
  }

  /** Members by id, removed ones included (holdings outlive membership). */
  async membersById(organizationId: string, ids: string[]): Promise<Map<string, MemberFacts>> {
    if (!ids.length) return new Map();
    const rows = await this.members.factsByIds(organizationId, ids);
    return new Map(rows.map((m) => [m.id, m]));
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
});

/**
 * SQL giving the user of a member (for record resolvers of records held by members: the holder
 * is the record's owner for "self" permissions). `memberExpression` is a column of the embedding
 * query.
 */
export const memberUserSql = (memberExpression: string) =>
  `(SELECT mu.user_id FROM member mu WHERE mu.id = ${memberExpression})`;

/** SQL listing the member ids of a user in an organization (self-scoped lists). */
export const membersOfUserSql = (organizationExpression: string, userExpression: string) =>
  `(SELECT mo.id FROM member mo WHERE mo.organization_id = ${organizationExpression}
     AND mo.user_id = ${userExpression} AND mo.status <> 'removed')`;
