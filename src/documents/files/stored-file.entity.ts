import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** What a stored file is for. */
export const FILE_PURPOSES = ['document', 'file', 'avatar', 'import'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/**
 * An uploaded file's metadata; its bytes are in storage under `storageKey`. Of an organization
 * (data room documents, organization files, imports) or of a user (profile files).
 */
@Entity('stored_file')
@Index('stored_file_org_idx', ['organizationId', 'created', 'id'])
@Index('stored_file_plan_idx', ['planId'])
@Index('stored_file_holding_idx', ['holdingId'])
export class StoredFile {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid', nullable: true })
  organizationId: string | null;

  /** The user a personal file (a profile's) belongs to. */
  @Column({ type: 'uuid', nullable: true })
  ownerUserId: string | null;

  @Column({ type: 'varchar', length: 20 })
  purpose: FilePurpose;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'varchar', length: 150 })
  contentType: string;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ type: 'varchar', length: 300 })
  storageKey: string;

  @Column({ type: 'uuid', nullable: true })
  uploadedByUserId: string | null;

  /** A plan document or grant agreement: the plan or holding it belongs to. */
  @Column({ type: 'uuid', nullable: true })
  planId: string | null;

  @Column({ type: 'uuid', nullable: true })
  holdingId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
