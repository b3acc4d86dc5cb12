import { Injectable } from '@nestjs/common';
import { UsersDirectory } from '../auth';
import type { InTransaction } from '../database';
import type { EventEnvelope } from '../events';
import { OrganizationsDirectory } from '../organizations';
import { RewardCards } from './cards/reward-cards.service';
import { ReferralCodes } from './codes/referral-codes.service';
import { ReferralCodesRepository } from './store/referral-codes.repository';
import { InvitationsRepository } from './store/invitations.repository';

/** What the referral program does when an account registers or an organization subscribes. */
@Injectable()
export class ReferralEvents {
  constructor(
    private readonly codes: ReferralCodes,
    private readonly links: ReferralCodesRepository,
    private readonly invitations: InvitationsRepository,
    private readonly cards: RewardCards,
    private readonly users: UsersDirectory,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  /**
   * `user.registered` with a known code links the new user to its owner, and the owner's
   * invitation to that address becomes `signed_up`. An unknown code (or one's own) is ignored.
   */
  async registered(tx: InTransaction, event: EventEnvelope): Promise<void> {
    const user = event.data.object as { id: string; email: string; referralCode?: string | null };
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
   * `subscription.created`: when the organization's creator was referred, their referrer earns a
   * card (once per invitee).
   */
  async subscribed(tx: InTransaction, event: EventEnvelope): Promise<void> {
    const organization = event.organization
      ? await this.organizations.organization(event.organization)
      : null;
    if (!organization) return;
    const creator = organization.createdBy
      ? await this.users.findById(organization.createdBy)
      : null;
    const referrerUserId = creator && (await this.links.referrerOf(creator.id, tx));
    if (creator && referrerUserId) {
      await this.cards.earn(tx, {
        referrerUserId,
        invitee: { userId: creator.id, email: creator.email },
        organizationId: organization.id,
      });
    }
  }
}
