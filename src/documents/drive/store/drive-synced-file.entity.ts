import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

/**
 * A drive file a configuration brought into the organization's store: the document it became and
 * the key of the version it holds (`md5Checksum`, or `modifiedTime` for the provider's native
 * files). `documentId` has no foreign key: it names a data room entry or a suite store item
 * (`suite_item`), whichever store the organization uses.
 */
@Entity('drive_synced_file')
export class DriveSyncedFile {
  @PrimaryColumn('uuid')
  configurationId: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  idpFileId: string;

  @Column({ type: 'uuid' })
  documentId: string;

  @Column({ type: 'varchar', length: 255 })
  changeKey: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('DriveSyncConfiguration', 'configuration_id')
  private readonly configuration?: unknown;
}
