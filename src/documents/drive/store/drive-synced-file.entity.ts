import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

/**
 * A drive file a configuration brought into the data room: the document it became and the key
 * of the version it holds (`md5Checksum`, or `modifiedTime` for the provider's native files).
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

  @ForeignKey('DataRoomEntry', 'document_id')
  private readonly document?: unknown;
}
