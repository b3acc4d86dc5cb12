import type { Readable } from 'node:stream';
import { Bucket, IdempotencyStrategy, Storage } from '@google-cloud/storage';
import { assertKey, StorageDriver, StorageObjectMissing } from './storage-driver';

export interface GcsOptions {
  bucket: string;
  /** Another endpoint (an emulator or the tests' fake): requests to it carry no credentials. */
  apiEndpoint?: string;
  projectId?: string;
  keyFilename?: string;
}

/** A Cloud Storage bucket, through the official client (@google-cloud/storage). */
export class GcsStorageDriver implements StorageDriver {
  readonly name = 'gcs' as const;
  private readonly bucket: Bucket;

  constructor(options: GcsOptions) {
    const storage = new Storage({
      ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
      ...(options.projectId ? { projectId: options.projectId } : {}),
      ...(options.keyFilename ? { keyFilename: options.keyFilename } : {}),
      // Every call of this driver is idempotent (a put writes the same bytes to a key of its
      // own, a delete ignores a missing object), so transient errors (429, 5xx, a reset
      // connection) are retried with the client's backoff, uploads included; by default the
      // client retries an upload only when it carries a generation precondition.
      retryOptions: { idempotencyStrategy: IdempotencyStrategy.RetryAlways },
    });
    this.bucket = storage.bucket(options.bucket);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    assertKey(key);
    // One request (no resumable session): an object is created whole or not at all. The client
    // compares the MD5 it computed with the one the service reports, and deletes a mismatch.
    await this.bucket.file(key).save(data, { contentType, resumable: false, validation: 'md5' });
  }

  async read(key: string): Promise<Readable> {
    assertKey(key);
    const file = this.bucket.file(key);
    const [exists] = await file.exists();
    if (!exists) throw new StorageObjectMissing(key);
    // The client checks the bytes against the CRC32C the service sends (x-goog-hash): a
    // corrupted download ends in a stream error instead of a silently wrong file.
    return file.createReadStream({ validation: 'crc32c' });
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.bucket.file(key).delete({ ignoreNotFound: true });
  }

  async exists(key: string): Promise<boolean> {
    assertKey(key);
    const [exists] = await this.bucket.file(key).exists();
    return exists;
  }
}
