import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type { ShareholdingStatus } from '../ledger/ledger-state';

/** Shares of one class held by one member under one certificate (an OCF stock security). */
@Entity('shareholding')
@Index('shareholding_org_idx', ['organizationId', 'created', 'id'])
@Index('shareholding_member_idx', ['memberId'])
@Index('shareholding_security_idx', ['securityId'])
// Every write counts the organization's shareholders (billing): an index-only count.
@Index('shareholding_active_member_idx', ['organizationId', 'memberId'], {
  where: `status = 'active'`,
})
export class Shareholding {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  memberId: string;

  @Column({ type: 'uuid' })
  securityId: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  quantity: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  pricePerShare: string | null;

  @Column({ type: 'date' })
  issueDate: string;

  @Column({ type: 'varchar', length: 40 })
  certificateNumber: string;

  @Column({ type: 'varchar', length: 20 })
  status: ShareholdingStatus;

  @Column({ type: 'uuid', array: true, default: '{}' })
  legendIds: string[];

  /** What was given for the shares (cash, services, IP ...), in words. */
  @Column({ type: 'text', nullable: true })
  consideration: string | null;

  @Column({ type: 'uuid', nullable: true })
  transferredFromId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Member', 'member_id')
  private readonly member?: unknown;

  @ForeignKey('Security', 'security_id')
  private readonly security?: unknown;
}
