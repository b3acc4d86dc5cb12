import type { Tx } from '../../../events';

/**
 * A drive file's bytes as they land in the organization's store. No content type: each store
 * derives it from the name and checks the bytes against it, as for any upload.
 */
export interface SyncFile {
  name: string;
  bytes: Buffer;
}

/**
 * Writes the caller's own rows (the synced file's version) in the transaction that records the
 * document, so that a crash never leaves a document the next run does not know as its own.
 */
export type KeepSynced = (tx: Tx, documentId: string) => Promise<void>;

/** The name is taken in the folder: the file is counted failed, the run goes on. */
export class NameTaken extends Error {}

/**
 * Where a run writes: the organization's store (the data room or the productivity-suite store),
 * through that store's own rules and events, as the member the run acts as.
 */
export interface SyncDestination {
  /** Our id of the folder at `path` (names from the top level; [] → null), made where missing. */
  folderAt(path: string[]): Promise<string | null>;
  /** Adds the file to the folder (null: the top level); its document id. */
  add(parentFolder: string | null, file: SyncFile, keep: KeepSynced): Promise<string>;
  /** Gives the document new content, same id; false when the document is gone meanwhile. */
  replace(documentId: string, file: SyncFile, keep: KeepSynced): Promise<boolean>;
  /** Whether the document is still in the store (a deleted one's file comes back as new). */
  exists(documentId: string): Promise<boolean>;
}
