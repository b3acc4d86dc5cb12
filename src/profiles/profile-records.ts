import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../common';

/**
 * Teaches the permission guard whose profiles, addresses and entities are. A profile or a
 * personal entity or address has an owner and no organization; an organization's address and
 * entity belong to the organization.
 */
@Injectable()
export class ProfileRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    this.resolvers.register(
      'profile',
      'SELECT NULL::uuid AS organization_id, user_id AS owner_user_id FROM profile WHERE id = {id}',
    );
    this.resolvers.register(
      'address',
      'SELECT organization_id, user_id AS owner_user_id FROM address WHERE id = {id}',
    );
    this.resolvers.register(
      'entity',
      'SELECT organization_id, owner_user_id FROM entity WHERE id = {id}',
    );
  }
}
