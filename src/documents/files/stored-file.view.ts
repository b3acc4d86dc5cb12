import { ApiProperty } from '@nestjs/swagger';
import { StoredFile } from './stored-file.entity';

/**
 * A file record (issue 12): `{id, organization, name, size, contentType, sha256, created}`, plus
 * the plan and holding it documents (null when it is linked to none), so the shape is the same
 * for every file.
 */
export class FileRecordView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  /** The organization it belongs to; null for a profile's file (its user's alone). */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  organization: string | null;

  /** The name it was uploaded under (cleaned of path parts and control characters). */
  name: string;

  /** Bytes. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  size: number;

  /** The type it is served with (from its extension). */
  @ApiProperty({ example: 'application/pdf' })
  contentType: string;

  /** SHA-256 of its bytes, hex. */
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  sha256: string;

  /** The plan it documents (a plan document), or null. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  plan: string | null;

  /** The holding it documents (a grant agreement), or null. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  holding: string | null;

  @ApiProperty({ format: 'date-time' })
  created: string;
}

export const toFileRecordView = (f: StoredFile): FileRecordView => ({
  id: f.id,
  organization: f.organizationId,
  name: f.name,
  size: f.size,
  contentType: f.contentType,
  sha256: f.sha256,
  plan: f.planId,
  holding: f.holdingId,
  created: f.created.toISOString(),
});
