import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

export type DriveSyncStatus = 'running' | 'completed' | 'failed';

/** One run of a sync configuration (a sync history entry): what it did to each file it saw. */
@Entity('drive_sync_history')
@Index('drive_sync_history_config_idx', ['configurationId', 'triggeredAt'])
@Index('drive_sync_history_org_idx', ['organizationId', 'triggeredAt'])
export class DriveSyncRun {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  configurationId: string;

  @Column({ type: 'varchar', length: 10 })
  status: DriveSyncStatus;

  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ type: 'int', default: 0 })
  filesProcessed: number;

  @Column({ type: 'int', default: 0 })
  filesAdded: number;

  @Column({ type: 'int', default: 0 })
  filesUpdated: number;

  @Column({ type: 'int', default: 0 })
  filesSkipped: number;

  @Column({ type: 'int', default: 0 })
  filesFailed: number;

  /** Who asked for the run; null for a scheduled one (it acts as the configuration's creator). */
  @Column({ type: 'uuid', nullable: true })
  triggeredByUserId: string | null;

  @Column({ type: 'timestamptz' })
  triggeredAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @ForeignKey('DriveSyncConfiguration', 'configuration_id')
  private readonly configuration?: unknown;
}
