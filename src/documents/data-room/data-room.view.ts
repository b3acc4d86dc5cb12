import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { StoredFile } from '../files/stored-file.entity';
import type { DataRoomEntry, EntryType } from './data-room-entry.entity';

/** A document or folder entry of spec section 2 (`contentType` added for files). */
export class DataRoomEntryView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  /** Unique in its folder whatever its case; a file's extension gives its content type. */
  name: string;

  @ApiProperty({ enum: ['file', 'folder'] })
  type: EntryType;

  /** The folder it is in; null at the top level. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  parentFolder: string | null;

  /** Files only: bytes. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  size?: number;

  /** Files only: the type it is served with. */
  @ApiPropertyOptional({ example: 'application/pdf' })
  contentType?: string;

  @ApiProperty({ format: 'date-time' })
  created: string;
}

export const toEntryView = (
  entry: DataRoomEntry,
  file?: Pick<StoredFile, 'size' | 'contentType'> | null,
): DataRoomEntryView => ({
  id: entry.id,
  name: entry.name,
  type: entry.type,
  parentFolder: entry.parentFolderId,
  ...(entry.type === 'file' && file ? { size: file.size, contentType: file.contentType } : {}),
  created: entry.created.toISOString(),
});
