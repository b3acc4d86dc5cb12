import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** A user's own referral code (made the first time it is needed); the code invitees register with. */
@Entity('referral_code')
export class ReferralCode {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 32, unique: true })
  code: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
