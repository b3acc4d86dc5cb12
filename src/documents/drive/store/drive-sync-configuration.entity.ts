import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

/**
 * A drive folder synced into a data-room folder. Soft-deleted (`deletedAt`): its history and
 * synced files stay, and it never runs again. One live configuration per folder and target.
 */
@Entity('drive_sync_configuration')
@Index('drive_sync_configuration_uq', ['organizationId', 'idpFolderId', 'targetDataRoomPath'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
export class DriveSyncConfiguration {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 128 })
  idpFolderId: string;

  @Column({ type: 'varchar', length: 255 })
  idpFolderName: string;

  /** `/`-separated data-room folder names, without outer slashes; '' is the top level. */
  @Column({ type: 'varchar', length: 1024 })
  targetDataRoomPath: string;

  @Column({ type: 'boolean', default: true })
  syncEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  syncSubfolders: boolean;

  /** Normalised extensions (`pdf,txt`); '' = every allowed type. */
  @Column({ type: 'varchar', length: 500, default: '' })
  fileTypeFilter: string;

  @Column({ type: 'timestamptz', nullable: true })
  lastSyncAt: Date | null;

  @Column({ type: 'text', nullable: true })
  syncError: string | null;

  /** Scheduled runs act as this user, who must still be allowed to edit documents. */
  @Column({ type: 'uuid' })
  createdByUserId: string;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
