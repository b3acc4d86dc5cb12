import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../../database';

export const INVITATION_STATES = ['sent', 'signed_up', 'subscribed'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/**
 * A referral invitation mailed to an address (not the organizations' member invitations): one
 * per referrer and address, mailed again on request at most once a day.
 */
@Entity('referral_invitation')
@Index('referral_invitation_referrer_email_uq', ['referrerUserId', 'email'], { unique: true })
@Index('referral_invitation_email_idx', ['email'])
export class ReferralInvitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  referrerUserId: string;

  /** Normalised (`normalizeEmail`). */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  @Column({ type: 'varchar', length: 20, default: 'sent' })
  state: InvitationState;

  /** The account that registered with the referrer's code at this address. */
  @Column({ type: 'uuid', nullable: true })
  inviteeUserId: string | null;

  @Column({ type: 'int', default: 1 })
  sendCount: number;

  @Column({ type: 'timestamptz' })
  lastSentAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('User', 'referrer_user_id')
  private readonly referrer?: unknown;
}
