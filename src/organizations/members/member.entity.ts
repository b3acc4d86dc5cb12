import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../../database';

export const MEMBER_STATUSES = ['active', 'invited', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** A person in an organization: a user with an account, or someone who never logs in. */
@Entity('member')
@Index('member_org_user_uq', ['organizationId', 'userId'], {
  unique: true,
  where: "user_id IS NOT NULL AND status <> 'removed'",
})
@Index('member_org_email_uq', ['organizationId', 'email'], {
  unique: true,
  where: "email IS NOT NULL AND status <> 'removed'",
})
@Index('member_user_idx', ['userId'])
@Index('member_org_created_idx', ['organizationId', 'created', 'id'])
export class Member {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  /** The member's legal entity (a user's personal entity, or one made for them). */
  @Column({ type: 'uuid', nullable: true })
  entityId: string | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Lower-cased. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 120, nullable: true })
  title: string | null;

  @Column({ type: 'uuid' })
  roleId: string;

  @Column({ type: 'varchar', length: 20, default: 'active' })
  status: MemberStatus;

  @Column({ type: 'timestamptz', nullable: true })
  removedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Role', 'role_id')
  private readonly role?: unknown;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;

  @ForeignKey('LegalEntity', 'entity_id')
  private readonly entity?: unknown;
}
