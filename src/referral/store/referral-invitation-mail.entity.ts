import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One referral invitation mail sent to an address, whoever sent it: what bounds the mails an
 * address receives in a period (INVITATIONS_PER_ADDRESS). The address is kept as a SHA-256 of its
 * normalised form; rows are deleted once older than the period.
 */
@Entity('referral_invitation_mail')
@Index('referral_invitation_mail_address_idx', ['addressHash', 'sentAt'])
export class ReferralInvitationMail {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Hex SHA-256 of the normalised address. */
  @Column({ type: 'char', length: 64 })
  addressHash: string;

  @Column({ type: 'timestamptz' })
  sentAt: Date;
}
