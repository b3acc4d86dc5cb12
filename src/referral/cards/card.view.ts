import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { RewardCard } from '../store/reward-card.entity';

/** A reward card: its value stays hidden until its owner reveals it. */
export class RewardCardView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  revealed: boolean;
  /** In BILLING_CURRENCY, two decimals; null until revealed. */
  @ApiProperty({ type: String, nullable: true, example: '25.00' })
  value: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
}

export const toCardView = (c: RewardCard): RewardCardView => ({
  id: c.id,
  revealed: c.revealedAt !== null,
  value: c.revealedAt !== null ? c.value : null,
  created: c.created.toISOString(),
});

/** `POST /v1/reward`. */
export class RevealRewardDto {
  /** The card's id. */
  @IsUUID('all', { message: 'rewardId must be a UUID' })
  rewardId: string;
}
