import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * A reward card a referrer earned on the first successful payment of an invitee's organization:
 * one per invitee. Its value is drawn when it is earned and kept secret until the owner reveals
 * it, which credits it (once) to the owner's personal entity.
 */
@Entity('reward_card')
export class RewardCard {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('reward_card_user_idx')
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid', unique: true })
  inviteeUserId: string;

  /** The invitee's organization whose first successful payment earned it. */
  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'numeric', precision: 16, scale: 2 })
  value: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'timestamptz', nullable: true })
  revealedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;

  @ForeignKey('User', 'invitee_user_id')
  private readonly invitee?: unknown;
}
