import { Module } from '@nestjs/common';
import { IdpContactsModule } from './idp/idp-contacts.module';

/**
 * The referral program (spec 4.8, issue 25): referral invitations, reward cards, the credit
 * ledger per entity with its transfers and redemptions, referred companies, the waitlist, and the
 * identity provider's contacts to invite.
 */
@Module({
  imports: [IdpContactsModule],
  controllers: [],
  providers: [],
})
export class ReferralModule {}
