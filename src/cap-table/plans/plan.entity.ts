import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type { CancellationBehavior } from '../ledger/incentive-types';

/** A stock plan (OCF StockPlan): shares of one class reserved for grants. */
@Entity('stock_plan')
@Index('stock_plan_org_idx', ['organizationId', 'created', 'id'])
export class Plan {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'uuid' })
  securityId: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  sharesReserved: string;

  @Column({ type: 'date', nullable: true })
  boardApprovalDate: string | null;

  @Column({ type: 'date', nullable: true })
  stockholderApprovalDate: string | null;

  @Column({ type: 'varchar', length: 20 })
  defaultCancellationBehavior: CancellationBehavior;

  /** Shares issued by exercising its grants. */
  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  exercised: string;

  /** Cancelled grants retired rather than returned to a pool. */
  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  retired: string;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Security', 'security_id')
  private readonly security?: unknown;
}
