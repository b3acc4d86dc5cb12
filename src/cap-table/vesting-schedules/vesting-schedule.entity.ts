import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { AllocationType, PeriodType } from '../../../libs/cap-math';
import { ForeignKey } from '../../database';

/**
 * A vesting schedule (OCF VestingTerms), one row per version: a PUT stores a new version under a
 * new id, and grants keep the version they were made with. Rebuilt by a replay of the log.
 */
@Entity('vesting_schedule')
@Index('vesting_schedule_org_idx', ['organizationId', 'created', 'id'])
export class VestingScheduleEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid', nullable: true })
  planId: string | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'uuid', nullable: true })
  previousVersionId: string | null;

  @Column({ type: 'uuid', nullable: true })
  supersededById: string | null;

  @Column({ type: 'integer' })
  totalPeriods: number;

  @Column({ type: 'integer' })
  periodLength: number;

  @Column({ type: 'varchar', length: 10 })
  periodType: PeriodType;

  @Column({ type: 'integer' })
  cliffPeriods: number;

  @Column({ type: 'varchar', length: 40 })
  allocationType: AllocationType;

  @Column({ type: 'varchar', length: 40, nullable: true })
  vestingDayOfMonth: string | null;

  @Column({ type: 'jsonb', nullable: true })
  acceleration: { trigger: 'single' | 'double'; percent: string } | null;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
