import { Module } from '@nestjs/common';

/**
 * The referral program (spec 4.8, issue 25): referral invitations, reward cards, the credit
 * ledger per entity with its transfers and redemptions, referred companies, the waitlist, and the
 * identity provider's contacts to invite.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class ReferralModule {}
