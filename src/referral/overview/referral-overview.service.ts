import { Injectable } from '@nestjs/common';
import { UsersDirectory } from '../../auth';
import { DomainError } from '../../common';
import { Env } from '../../config';
import { OrganizationsDirectory } from '../../organizations';
import { LegalRecordsService } from '../../profiles';
import { RewardCards } from '../cards/reward-cards.service';
import { ReferralCodes } from '../codes/referral-codes.service';
import { CreditLedger } from '../credit/credit-ledger.service';
import { ReferralInvitations } from '../invitations/referral-invitations.service';
import { ReferralCodesRepository } from '../store/referral-codes.repository';
import {
  EntityReferralView,
  OrganizationReferralView,
  WaitlistStatsView,
} from './referral-overview.view';

/** The referral pages' reads: an entity's referral data, an organization's credit summary. */
@Injectable()
export class ReferralOverview {
  constructor(
    private readonly records: LegalRecordsService,
    private readonly organizations: OrganizationsDirectory,
    private readonly codes: ReferralCodes,
    private readonly links: ReferralCodesRepository,
    private readonly invitations: ReferralInvitations,
    private readonly cards: RewardCards,
    private readonly ledger: CreditLedger,
    private readonly users: UsersDirectory,
    private readonly env: Env,
  ) {}

  /** The guard let the caller in: the entity is theirs, or an organization's they bill for. */
  async ofEntity(entityId: string): Promise<EntityReferralView> {
    const entity = await this.records.entityOwner(entityId);
    if (!entity) throw DomainError.notFound();
    const owner = entity.ownerUserId;
    const [referralCode, referralCount, invitations, cards, balance] = await Promise.all([
      owner ? this.codes.codeOf(owner) : null,
      owner ? this.links.countReferred(owner) : 0,
      owner ? this.invitations.list(owner) : [],
      owner ? this.cards.list(owner) : [],
      this.ledger.balance(entityId),
    ]);
    return {
      entity: entityId,
      referralCode,
      referralCount,
      invitations,
      cards,
      balance,
      currency: this.env.BILLING_CURRENCY,
    };
  }

  async ofOrganization(organizationId: string): Promise<OrganizationReferralView> {
    const organization = await this.organizations.organization(organizationId);
    if (!organization) throw DomainError.notFound();
    const totals = await this.ledger.totals(organization.entityId);
    return {
      organization: organization.id,
      entity: organization.entityId,
      currency: this.env.BILLING_CURRENCY,
      balance: totals.balance,
      received: totals.received,
      sent: totals.sent,
      redeemed: totals.redeemed,
      movements: totals.entries,
    };
  }

  /** The waitlist's size; with a user, also their place and how many they referred. */
  async waitlist(userId: string | undefined): Promise<WaitlistStatsView> {
    const { total, position } = await this.users.waitlist(userId);
    if (!userId || position === null) return { total };
    return { total, position, referralCount: await this.links.countReferred(userId) };
  }
}
