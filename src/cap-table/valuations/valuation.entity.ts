import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** A valuation of the company's shares (OCF Valuation): a 409A, a priced round ... */
@Entity('valuation')
@Index('valuation_org_date_idx', ['organizationId', 'effectiveDate'])
export class Valuation {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 40 })
  type: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  pricePerShare: string;

  @Column({ type: 'uuid', nullable: true })
  securityId: string | null;

  @Column({ type: 'date' })
  effectiveDate: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  provider: string | null;

  @Column({ type: 'uuid', nullable: true })
  reportFileId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
