import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database/foreign-key';
import { Role } from '../roles/role.entity';
import { Organization } from '../organizations/organization.entity';
import { Member } from '../members/member.entity';

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

  @Column({ type: 'uuid', nullable: true })
  invitedBy: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey(() => Organization, 'organization_id')
  private readonly organization?: Organization;

  @ForeignKey(() => Member, 'member_id')
  private readonly member?: Member;

  @ForeignKey(() => Role, 'role_id')
  private readonly role?: Role;
}
