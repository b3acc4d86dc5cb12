import { Injectable } from '@nestjs/common';
import { UsersDirectory } from '../../auth';
import { Clock, DomainError } from '../../common';
import { Env } from '../../config';
import type { InTransaction } from '../../database';
import { UnitOfWork } from '../../events';
import { CreditLedger } from '../credit/credit-ledger.service';
import { CardsRepository } from '../store/cards.repository';
import { InvitationsRepository } from '../store/invitations.repository';
import { RewardCardView, toCardView } from './card.view';
import { drawReward } from './reward-draw';

/** Reward cards: earned by referrers, revealed (and credited) once by their owner. */
@Injectable()
export class RewardCards {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly cards: CardsRepository,
    private readonly invitations: InvitationsRepository,
    private readonly ledger: CreditLedger,
    private readonly users: UsersDirectory,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  async list(userId: string): Promise<RewardCardView[]> {
    return (await this.cards.listOf(userId)).map(toCardView);
  }

  /**
   * Reveals the card and credits its value to the owner's personal entity, both once: the card's
   * row lock makes a concurrent second reveal wait, then find it revealed and credit nothing.
   */
  async reveal(userId: string, cardId: string): Promise<RewardCardView> {
    const owner = await this.users.findById(userId);
    if (!owner) throw DomainError.unauthorized('the account no longer exists');
    return this.uow.run(async (tx) => {
      const card = await this.cards.lockById(cardId, tx);
      if (!card) throw DomainError.notFound('no such reward card');
      if (card.userId !== userId) throw DomainError.forbidden('this reward card is someone else’s');
      if (!card.revealedAt) {
        card.revealedAt = this.clock.now();
        await this.cards.save(card, tx);
        await this.ledger.grant(tx, {
          entityId: owner.entityId,
          amount: card.value,
          cardId: card.id,
          actorUserId: userId,
        });
      }
      return toCardView(card);
    });
  }

  /**
   * The referrer earns a card for the invitee (once per invitee, whatever organization of theirs
   * paid), its value drawn now; their invitation to the invitee becomes `subscribed`.
   */
  async earn(
    tx: InTransaction,
    earned: {
      referrerUserId: string;
      invitee: { userId: string; email: string };
      organizationId: string;
    },
  ): Promise<void> {
    await this.cards.addOnce(
      {
        userId: earned.referrerUserId,
        inviteeUserId: earned.invitee.userId,
        organizationId: earned.organizationId,
        value: drawReward(this.env.referralRewards),
        currency: this.env.BILLING_CURRENCY,
      },
      tx,
    );
    await this.invitations.advance(
      earned.referrerUserId,
      earned.invitee,
      ['sent', 'signed_up'],
      'subscribed',
      tx,
    );
  }
}
