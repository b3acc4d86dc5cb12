import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** A pool of a stock plan: part of its reservation, with what was granted from it. */
@Entity('stock_plan_pool')
@Index('stock_plan_pool_plan_idx', ['planId'])
@Index('stock_plan_pool_org_idx', ['organizationId'])
export class Pool {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  planId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  sharesReserved: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  granted: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  exercised: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  cancelled: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  returned: string;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Plan', 'plan_id')
  private readonly plan?: unknown;
}
