import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type {
  ConversionRecord,
  HoldingStatus,
  HoldingTerms,
  HoldingType,
} from '../ledger/incentive-types';

/**
 * An option grant, RSU, SAR, warrant, convertible note or SAFE of a member (OCF
 * EquityCompensationIssuance, WarrantIssuance, ConvertibleIssuance) with what happened to it since.
 * Type-specific terms are in `terms`; quantities that change by transactions are columns.
 */
@Entity('holding')
@Index('holding_org_idx', ['organizationId', 'created', 'id'])
@Index('holding_member_idx', ['memberId'])
@Index('holding_pool_idx', ['poolId'])
export class Holding {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  memberId: string;

  @Column({ type: 'varchar', length: 20 })
  type: HoldingType;

  @Column({ type: 'varchar', length: 20 })
  status: HoldingStatus;

  @Column({ type: 'uuid', nullable: true })
  planId: string | null;

  @Column({ type: 'uuid', nullable: true })
  poolId: string | null;

  /** The class it becomes: the plan's for grants, the warrant's own. */
  @Column({ type: 'uuid', nullable: true })
  securityId: string | null;

  @Column({ type: 'uuid', nullable: true })
  vestingScheduleId: string | null;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  quantity: string | null;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  exercised: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  cancelled: string;

  @Column({ type: 'numeric', precision: 38, scale: 10, nullable: true })
  principalOutstanding: string | null;

  /** Interest accrued up to `accruedThrough` and not yet paid (full precision). */
  @Column({ type: 'numeric', nullable: true })
  accruedUnpaid: string | null;

  @Column({ type: 'date', nullable: true })
  accruedThrough: string | null;

  @Column({ type: 'numeric', nullable: true })
  interestPaid: string | null;

  @Column({ type: 'jsonb' })
  terms: HoldingTerms;

  @Column({ type: 'jsonb', nullable: true })
  conversion: ConversionRecord | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Member', 'member_id')
  private readonly member?: unknown;
}
