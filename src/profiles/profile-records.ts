import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../common';
import { ownedSql } from '../database';

/**
 * Teaches the permission guard whose profiles, addresses and entities are. A profile or a
 * personal entity or address has an owner and no organization; an organization's address and
 * entity belong to the organization.
 */
@Injectable()
export class ProfileRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    // The access query (organizations') embeds these: marked as this module's SQL.
    const register = (kind: string, sql: string) =>
      this.resolvers.register(kind, ownedSql('profiles', sql));
    register(
      'profile',
      'SELECT NULL::uuid AS organization_id, user_id AS owner_user_id FROM profile WHERE id = {id}',
    );
    register(
      'address',
      'SELECT organization_id, user_id AS owner_user_id FROM address WHERE id = {id}',
    );
    register('entity', 'SELECT organization_id, owner_user_id FROM entity WHERE id = {id}');
  }
}
