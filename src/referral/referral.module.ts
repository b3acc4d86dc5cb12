import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../auth';
import { BillingModule } from '../billing';
import { MailModule } from '../mail';
import { OrganizationsModule } from '../organizations';
import { ProfilesModule } from '../profiles';
import { RewardCardsController } from './cards/reward-cards.controller';
import { RewardCards } from './cards/reward-cards.service';
import { ReferralCodes } from './codes/referral-codes.service';
import { ReferredCompaniesController } from './companies/referred-companies.controller';
import { ReferredCompanies } from './companies/referred-companies.service';
import { CreditController } from './credit/credit.controller';
import { CreditExpiry } from './credit/credit-expiry';
import { CreditLedger } from './credit/credit-ledger.service';
import { CreditRedemptionConsumer } from './credit/credit-redemption.consumer';
import { CreditRedemptions } from './credit/credit-redemptions.service';
import { IdpContactsModule } from './idp/idp-contacts.module';
import { ReferralInvitationsController } from './invitations/referral-invitations.controller';
import { ReferralInvitations } from './invitations/referral-invitations.service';
import { ReferralOverviewController } from './overview/referral-overview.controller';
import { ReferralOverview } from './overview/referral-overview.service';
import { ReferralConsumer } from './referral.consumer';
import { ReferralEvents } from './referral-events.service';
import { CardsRepository } from './store/cards.repository';
import { CompaniesRepository } from './store/companies.repository';
import { CreditAccount } from './store/credit-account.entity';
import { CreditEntry } from './store/credit-entry.entity';
import { CreditRedemption } from './store/credit-redemption.entity';
import { CreditLedgerRepository } from './store/credit-ledger.repository';
import { InvitationMailRetention } from './invitations/invitation-mail-retention';
import { InvitationMailsRepository } from './store/invitation-mails.repository';
import { InvitationsRepository } from './store/invitations.repository';
import { ReferralCode } from './store/referral-code.entity';
import { ReferralCodesRepository } from './store/referral-codes.repository';
import { ReferralInvitation } from './store/referral-invitation.entity';
import { ReferralInvitationMail } from './store/referral-invitation-mail.entity';
import { ReferralLink } from './store/referral-link.entity';
import { ReferredCompany } from './store/referred-company.entity';
import { RewardCard } from './store/reward-card.entity';
import { WaitlistController } from './waitlist/waitlist.controller';

/**
 * The referral program (spec 4.8, issue 25): referral invitations, reward cards, the credit
 * ledger per entity with its transfers and redemptions, referred companies, the waitlist, and the
 * identity provider's contacts to invite. Nothing to configure: without billing no card is ever
 * earned and no credit redeemed; without SMTP the mails are logged.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ReferralCode,
      ReferralLink,
      ReferralInvitation,
      ReferralInvitationMail,
      RewardCard,
      CreditAccount,
      CreditEntry,
      CreditRedemption,
      ReferredCompany,
    ]),
    UsersModule,
    OrganizationsModule,
    ProfilesModule,
    BillingModule,
    MailModule,
    IdpContactsModule,
  ],
  controllers: [
    ReferralInvitationsController,
    RewardCardsController,
    CreditController,
    ReferralOverviewController,
    ReferredCompaniesController,
    WaitlistController,
  ],
  providers: [
    ReferralCodesRepository,
    InvitationsRepository,
    InvitationMailsRepository,
    InvitationMailRetention,
    CardsRepository,
    CreditLedgerRepository,
    CompaniesRepository,
    ReferralCodes,
    ReferralInvitations,
    RewardCards,
    CreditLedger,
    CreditRedemptions,
    CreditRedemptionConsumer,
    CreditExpiry,
    ReferredCompanies,
    ReferralOverview,
    ReferralEvents,
    ReferralConsumer,
  ],
})
export class ReferralModule {}
