import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** An invitation mailed to an address; its token (stored hashed) is accepted once. */
@Entity('invitation')
export class Invitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** The member row created in status `invited`. */
  @Column({ type: 'uuid' })
  memberId: string;

  /** Normalised (`normalizeEmail`); the invitee is whoever proves this address. */
  @Index('invitation_email_idx')
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'uuid' })
  roleId: string;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  /** SHA-256 of the token, hex. */
  @Index('invitation_token_uq', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  /** The invitee said no (`POST /v1/user/invitations/:invitation/decline`). */
  @Column({ type: 'timestamptz', nullable: true })
  declinedAt: Date | null;

  @Column({ type: 'uuid', nullable: true })
  invitedBy: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Member', 'member_id')
  private readonly member?: unknown;

  @ForeignKey('Role', 'role_id')
  private readonly role?: unknown;
}
