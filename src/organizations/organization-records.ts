import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../common';

/** Teaches the permission guard where organizations, members, roles and members' entities belong. */
@Injectable()
export class OrganizationRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    // For routes naming the organization by another path parameter (`/api/v1/chat/sync-org/:orgId`).
    this.resolvers.register(
      'organization',
      `SELECT id AS organization_id, NULL::uuid AS owner_user_id FROM organization
       WHERE id = {id} AND deleted_at IS NULL`,
    );
    this.resolvers.register(
      'member',
      `SELECT organization_id, user_id AS owner_user_id FROM member
       WHERE id = {id} AND status <> 'removed'`,
    );
    // Built-in roles (no organization of their own) belong to every organization.
    this.resolvers.register(
      'role',
      `SELECT COALESCE(organization_id, {organization}) AS organization_id, NULL::uuid AS owner_user_id
       FROM role WHERE id = {id} AND deleted_at IS NULL`,
    );
    // The legal entity of a current member of the organization in context (the path's, or the
    // body's on routes such as `/v1/entity/:entity/capitalChange`).
    this.resolvers.register(
      'memberEntity',
      `SELECT m.organization_id, m.user_id AS owner_user_id FROM member m
       WHERE m.entity_id = {id} AND m.organization_id = {organization} AND m.status <> 'removed'`,
    );
  }
}
