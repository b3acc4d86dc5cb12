import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../common';

/** Teaches the permission guard whose subscriptions are: the organization's they bill. */
@Injectable()
export class BillingRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    this.resolvers.register(
      'subscription',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM billing_subscription WHERE id = {id}',
    );
  }
}
