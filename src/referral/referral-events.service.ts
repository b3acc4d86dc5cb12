import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { UsersDirectory } from '../auth';
import { PaymentListeners, SucceededPayment } from '../billing';
import type { InTransaction } from '../database';
import { eventObject, type EventEnvelope } from '../events';
import { OrganizationsDirectory } from '../organizations';
import { RewardCards } from './cards/reward-cards.service';
import { ReferralCodes } from './codes/referral-codes.service';
import { ReferralCodesRepository } from './store/referral-codes.repository';
import { InvitationsRepository } from './store/invitations.repository';

/** What the referral program does when an account registers or an organization first pays. */
@Injectable()
export class ReferralEvents implements OnModuleInit {
  constructor(
    private readonly codes: ReferralCodes,
    private readonly links: ReferralCodesRepository,
    private readonly invitations: InvitationsRepository,
    private readonly cards: RewardCards,
    private readonly users: UsersDirectory,
    private readonly organizations: OrganizationsDirectory,
    private readonly payments: PaymentListeners,
  ) {}

  onModuleInit() {
    this.payments.onSucceeded((tx, payment) => this.paid(tx, payment));
  }

  /**
   * `user.registered` with a known code links the new user to its owner, and the owner's
   * invitation to that address becomes `signed_up`. An unknown code (or one's own) is ignored.
   */
  async registered(tx: InTransaction, event: EventEnvelope): Promise<void> {
    const user = eventObject(event, 'user.registered');
    if (!user) return;
    const referrerUserId = await this.codes.ownerOf(user.referralCode);
    if (!referrerUserId || referrerUserId === user.id) return;
    if (!(await this.links.link(user.id, referrerUserId, tx))) return;
    await this.invitations.advance(
      referrerUserId,
      { userId: user.id, email: user.email },
      ['sent'],
      'signed_up',
      tx,
    );
  }

  /**
   * A successful payment of an organization (in the transaction of the billing webhook that
   * records `payment.succeeded`): when the organization's creator was referred, their referrer
   * earns a card, once per invitee, so only the invitee's first paying organization's first
   * payment counts. A signup alone (a trial, a card that is then declined) earns nothing, nor
   * does a payment of nothing (a fully discounted invoice).
   */
  async paid(tx: InTransaction, payment: SucceededPayment): Promise<void> {
    if (payment.amount === null || !new Decimal(payment.amount).gt(0)) return;
    const organization = await this.organizations.organization(payment.organizationId);
    if (!organization?.createdBy) return;
    const referrerUserId = await this.links.referrerOf(organization.createdBy, tx);
    if (!referrerUserId) return;
    const creator = await this.users.findById(organization.createdBy);
    if (!creator) return;
    await this.cards.earn(tx, {
      referrerUserId,
      invitee: { userId: creator.id, email: creator.email },
      organizationId: organization.id,
    });
  }
}
