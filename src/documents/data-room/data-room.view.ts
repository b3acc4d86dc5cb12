import type { StoredFile } from '../files/stored-file.entity';
import type { DataRoomEntry, EntryType } from './data-room-entry.entity';

/** A document or folder entry of spec section 2 (`contentType` added for files). */
export interface DataRoomEntryView {
  id: string;
  name: string;
  type: EntryType;
  parentFolder: string | null;
  /** Files only: bytes. */
  size?: number;
  /** Files only: the type it is served with. */
  contentType?: string;
  created: string;
}

export const ENTRY_SHAPE =
  '{id, name, type ("file" or "folder"), parentFolder (null at the top level), size (files only, bytes), contentType (files only), created}';

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
