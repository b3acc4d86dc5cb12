import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';

export type EntryType = 'file' | 'folder';

/**
 * A document or folder of an organization's data room. Names are unique within a folder (case
 * insensitive): `parentKey` is the folder, or the organization for the top level, and `nameKey`
 * the name in lower case, so one unique index holds under concurrency.
 */
@Entity('document')
@Index('document_org_parent_idx', ['organizationId', 'parentFolderId'])
@Index('document_name_uq', ['organizationId', 'parentKey', 'nameKey'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
export class DataRoomEntry {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  nameKey: string;

  @Column({ type: 'varchar', length: 10 })
  type: EntryType;

  @Column({ type: 'uuid', nullable: true })
  parentFolderId: string | null;

  @Column({ type: 'uuid' })
  parentKey: string;

  /** A file's stored bytes. */
  @Column({ type: 'uuid', nullable: true })
  fileId: string | null;

  @Column({ type: 'uuid', nullable: true })
  createdByUserId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('StoredFile', 'file_id')
  private readonly file?: unknown;
}
