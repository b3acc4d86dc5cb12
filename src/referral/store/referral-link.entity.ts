import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** Who referred a user: the owner of the code the user registered with (one referrer per user). */
@Entity('referral_link')
export class ReferralLink {
  @PrimaryColumn({ type: 'uuid' })
  inviteeUserId: string;

  @Index('referral_link_referrer_idx')
  @Column({ type: 'uuid' })
  referrerUserId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('User', 'invitee_user_id')
  private readonly invitee?: unknown;

  @ForeignKey('User', 'referrer_user_id')
  private readonly referrer?: unknown;
}
