import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreditAccount } from './store/credit-account.entity';
import { CreditEntry } from './store/credit-entry.entity';
import { ReferralCode } from './store/referral-code.entity';
import { ReferralInvitation } from './store/referral-invitation.entity';
import { ReferralLink } from './store/referral-link.entity';
import { ReferredCompany } from './store/referred-company.entity';
import { RewardCard } from './store/reward-card.entity';

/**
 * The referral program (spec 4.8, issue 25): referral invitations, reward cards, the credit
 * ledger per entity with its transfers and redemptions, referred companies, the waitlist, and the
 * identity provider's contacts to invite.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ReferralCode,
      ReferralLink,
      ReferralInvitation,
      RewardCard,
      CreditAccount,
      CreditEntry,
      ReferredCompany,
    ]),
  ],
  controllers: [],
  providers: [],
})
export class ReferralModule {}
