import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type { ClassType } from '../ledger/transaction-types';

/** A share class (OCF StockClass): current state, rebuilt by a replay of the log. */
@Entity('security')
@Index('security_org_idx', ['organizationId'])
@Index('security_org_name_uq', ['organizationId', 'name'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('security_org_prefix_uq', ['organizationId', 'idPrefix'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
export class Security {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 20 })
  classType: ClassType;

  /** Certificate prefix, such as `CS-`. */
  @Column({ type: 'varchar', length: 20 })
  idPrefix: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  authorizedShares: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  issuedShares: string;

  /** Held back for stock plans (reserved less exercised and retired): not issuable otherwise. */
  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  reservedShares: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  parValue: string | null;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  originalIssuePrice: string | null;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'integer', default: 1 })
  seniority: number;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  liquidationPreferenceMultiple: string | null;

  @Column({ type: 'boolean', default: false })
  participating: boolean;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  participationCapMultiple: string | null;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 1 })
  conversionRatio: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 1 })
  votesPerShare: string;

  @Column({ type: 'date', nullable: true })
  boardApprovalDate: string | null;

  @Column({ type: 'integer', default: 1 })
  nextCertificateNumber: number;

  /** One past the highest share number: up to 10^28 when every authorized share is issued. */
  @Column({ type: 'numeric', precision: 39, scale: 10, default: 1 })
  nextShareNumber: string;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
