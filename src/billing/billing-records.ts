import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../common';
import { ownedSql } from '../database';

/** Teaches the permission guard whose subscriptions are: the organization's they bill. */
@Injectable()
export class BillingRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    // The access query (organizations') embeds these: marked as this module's SQL.
    const register = (kind: string, sql: string) =>
      this.resolvers.register(kind, ownedSql('billing', sql));
    register(
      'subscription',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM billing_subscription WHERE id = {id}',
    );
  }
}
