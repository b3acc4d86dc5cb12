import { DomainError } from '../../common';
import type { InTransaction } from '../../database';
import type { DataRoomEntryRepository } from './data-room-entry.repository';

/**
 * The `parentKey` of a place in the data room: the folder's id, or the organization's for the
 * top level (null). 404 when the folder is not one of the organization's (or was deleted), 400
 * when it is a file.
 */
export async function parentKeyOf(
  entries: DataRoomEntryRepository,
  organizationId: string,
  folderId: string | null,
  tx?: InTransaction,
): Promise<string> {
  if (folderId === null) return organizationId;
  const folder = await entries.findLive(organizationId, folderId, tx);
  if (!folder) throw DomainError.notFound('no such folder in this data room');
  if (folder.type !== 'folder')
    throw DomainError.badRequest('parentFolder is a file, not a folder');
  return folder.id;
}
