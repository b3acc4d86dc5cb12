import type { Readable } from 'node:stream';

/** The bytes of uploaded files, by key. Metadata lives in PostgreSQL (StoredFile). */
export interface StorageDriver {
  readonly name: 'local' | 'gcs';
  /** Writes the object whole, or not at all. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object's bytes; StorageObjectMissing when there is none. */
  read(key: string): Promise<Readable>;
  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** The Nest token of the configured driver. */
export const STORAGE = Symbol('STORAGE');

export class StorageObjectMissing extends Error {
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
    this.name = 'StorageObjectMissing';
  }
}

/** Keys are ours (`<organization or user>/<file id>`), never a client's path. */
export function assertKey(key: string): void {
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) ||
    key.includes('..')
  ) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
}
