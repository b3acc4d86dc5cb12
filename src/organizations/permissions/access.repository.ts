import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository } from '../../database';
import { Member } from '../members/member.entity';
import { SiteAdmin } from '../site-admin/site-admin.entity';
import { AccessQuery, AccessRow } from './access-query';

/** An active membership of the user in an organization that is not deleted, with its role. */
export interface MembershipRow {
  organization_id: string;
  role_id: string;
  role_permissions: string[] | null;
}

/** An active member of an organization with a user account, with its role. */
export interface MemberRoleRow {
  user_id: string;
  name: string;
  email: string | null;
  role_id: string;
  role_permissions: string[] | null;
}

/** The reads of the permission guard: one prepared query per request. */
@Injectable()
export class AccessRepository extends AggregateRepository<Member> {
  constructor(
    @InjectRepository(Member) members: Repository<Member>,
    @InjectRepository(SiteAdmin) private readonly siteAdmins: Repository<SiteAdmin>,
  ) {
    super(members);
  }

  async decide(query: AccessQuery): Promise<AccessRow | undefined> {
    const rows = await this.prepared<AccessRow>(query.sql, query.params);
    return rows[0];
  }

  /** The user's active memberships of organizations that are not deleted, oldest first. */
  activeMemberships(userId: string): Promise<MembershipRow[]> {
    return this.prepared<MembershipRow>(
      `SELECT m.organization_id, m.role_id, r.permissions AS role_permissions
       FROM member m
       JOIN organization o ON o.id = m.organization_id AND o.deleted_at IS NULL
       LEFT JOIN role r ON r.id = m.role_id
       WHERE m.user_id = $1 AND m.status = 'active' AND m.role_id IS NOT NULL
       ORDER BY m.created, m.organization_id`,
      [userId],
    );
  }

  /** The organization's active members who have a user account, with their roles. */
  activeUserMembers(organizationId: string): Promise<MemberRoleRow[]> {
    return this.prepared<MemberRoleRow>(
      `SELECT m.user_id, m.name, m.email, m.role_id, r.permissions AS role_permissions
       FROM member m
       LEFT JOIN role r ON r.id = m.role_id
       WHERE m.organization_id = $1 AND m.status = 'active' AND m.user_id IS NOT NULL
         AND m.role_id IS NOT NULL
       ORDER BY m.created, m.id`,
      [organizationId],
    );
  }

  isSiteAdmin(userId: string): Promise<boolean> {
    return this.siteAdmins.exists({ where: { userId } });
  }
}
