import { StoredFile } from './stored-file.entity';

/**
 * A file record (issue 12): `{id, organization, name, size, contentType, sha256, created}`, plus
 * the plan and holding it documents (null when it is linked to none), so the shape is the same
 * for every file.
 */
export interface FileRecordView {
  id: string;
  organization: string | null;
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  plan: string | null;
  holding: string | null;
  created: string;
}

export const FILE_RECORD_SHAPE =
  '{id, organization (null for a profile’s file), name, size (bytes), contentType, sha256 (hex), plan, holding (the plan or holding it documents, or null), created}';

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
