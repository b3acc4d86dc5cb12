import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { RewardCard } from './reward-card.entity';

/** A user's cards are few (one per invitee who paid); the list is bounded all the same. */
const LIST_LIMIT = 1000;

@Injectable()
export class CardsRepository extends AggregateRepository<RewardCard> {
  constructor(@InjectRepository(RewardCard) cards: Repository<RewardCard>) {
    super(cards);
  }

  listOf(userId: string): Promise<RewardCard[]> {
    return this.repository.find({
      where: { userId },
      order: { created: 'DESC', id: 'ASC' },
      take: LIST_LIMIT,
    });
  }

  /** The card for this invitee unless one was earned already (once per invitee). */
  async addOnce(card: Omit<RewardCard, 'id' | 'created' | 'revealedAt'>, tx: InTransaction) {
    const result = await tx.manager
      .createQueryBuilder()
      .insert()
      .into(RewardCard)
      .values(card)
      .orIgnore()
      .returning(['id'])
      .execute();
    return result.raw.length > 0;
  }
}
