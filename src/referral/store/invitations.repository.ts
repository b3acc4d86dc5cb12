import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { InvitationState, ReferralInvitation } from './referral-invitation.entity';

/** At most this many invitations are listed (newest first); a referrer's list is short. */
const LIST_LIMIT = 1000;

@Injectable()
export class InvitationsRepository extends AggregateRepository<ReferralInvitation> {
  constructor(@InjectRepository(ReferralInvitation) invitations: Repository<ReferralInvitation>) {
    super(invitations);
  }

  lockFor(referrerUserId: string, email: string, tx: InTransaction) {
    return this.repo(tx).findOne({
      where: { referrerUserId, email },
      lock: { mode: 'pessimistic_write' },
    });
  }

  listOf(referrerUserId: string): Promise<ReferralInvitation[]> {
    return this.repository.find({
      where: { referrerUserId },
      order: { created: 'DESC', id: 'ASC' },
      take: LIST_LIMIT,
    });
  }

  /** The referrer's invitation to the invitee's address (or already theirs) moves on to `state`. */
  async advance(
    referrerUserId: string,
    invitee: { userId: string; email: string },
    from: InvitationState[],
    to: InvitationState,
    tx: InTransaction,
  ): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update()
      .set({ state: to, inviteeUserId: invitee.userId })
      .where('referrer_user_id = :referrerUserId', { referrerUserId })
      .andWhere('(email = :email OR invitee_user_id = :userId)', invitee)
      .andWhere('state IN (:...from)', { from })
      .execute();
  }
}
