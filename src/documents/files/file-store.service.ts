import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { Tx, UnitOfWork } from '../../events';
import { STORAGE, StorageDriver } from '../storage/storage-driver';
import { contentMatches, contentTypeOf, extensionOf } from './file-types';
import { FilePurpose, StoredFile } from './stored-file.entity';

/** One file of a multipart upload, as multer hands it over. */
export interface Upload {
  originalname: string;
  buffer: Buffer;
  size: number;
  fieldname?: string;
}

export interface StoreRequest {
  organizationId: string | null;
  ownerUserId?: string | null;
  uploadedByUserId: string;
  purpose: FilePurpose;
  planId?: string | null;
  holdingId?: string | null;
}

/**
 * Stores uploaded files: checks each (an allowed extension, bytes that are what the extension
 * says), writes the bytes to storage, then records the rows and whatever else the caller does in
 * one transaction. When anything fails the objects written are deleted again: a failed upload
 * leaves neither a row nor an orphan object.
 */
@Injectable()
export class FileStore {
  private readonly logger = new Logger(FileStore.name);

  constructor(
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly uow: UnitOfWork,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  /** 400 `missingFileArgument` without files; `unsupportedFileExtension` for a bad one. */
  check(uploads: Upload[] | undefined): Upload[] {
    if (!uploads?.length) throw DomainError.keyed('missingFileArgument', 'no file was uploaded');
    for (const u of uploads) {
      const extension = extensionOf(cleanName(u.originalname));
      if (!this.env.STORAGE_ALLOWED_EXTENSIONS.includes(extension)) {
        throw DomainError.keyed(
          'unsupportedFileExtension',
          `${cleanName(u.originalname)}: .${extension || '(none)'} files are not accepted (${this.env.STORAGE_ALLOWED_EXTENSIONS.join(', ')})`,
        );
      }
      if (!contentMatches(extension, u.buffer)) {
        throw DomainError.keyed(
          'unsupportedFileExtension',
          `${cleanName(u.originalname)}: the content is not a .${extension} file`,
        );
      }
    }
    return uploads;
  }

  /**
   * Checks and stores `uploads`, then runs `work` in the transaction that records their rows (its
   * events are recorded with them). Returns the stored rows and what `work` returned.
   */
  async store<T>(
    uploads: Upload[] | undefined,
    request: StoreRequest,
    work: (tx: Tx, files: StoredFile[]) => Promise<T>,
  ): Promise<{ files: StoredFile[]; result: T }> {
    const checked = this.check(uploads);
    const files = checked.map((u) => this.describe(u, request));
    const written: string[] = [];
    try {
      for (const [i, f] of files.entries()) {
        // Listed before the write: a put that fails after the object was written (a timeout, a
        // 5xx after the write) must not leave it behind. Deleting a missing object is harmless.
        written.push(f.storageKey);
        await this.storage.put(f.storageKey, checked[i].buffer, f.contentType);
      }
      const result = await this.uow.run(async (tx) => {
        await tx.manager.getRepository(StoredFile).insert(files);
        return work(tx, files);
      });
      return { files, result };
    } catch (err) {
      await this.discard(written);
      throw err;
    }
  }

  /** The bytes of a stored file. */
  open(file: StoredFile): Promise<Readable> {
    return this.storage.read(file.storageKey);
  }

  private describe(u: Upload, request: StoreRequest): StoredFile {
    const id = randomUUID();
    const name = cleanName(u.originalname);
    const owner = request.organizationId ?? `users/${request.ownerUserId}`;
    return Object.assign(new StoredFile(), {
      id,
      organizationId: request.organizationId,
      ownerUserId: request.ownerUserId ?? null,
      purpose: request.purpose,
      name,
      size: u.buffer.length,
      contentType: contentTypeOf(extensionOf(name)),
      sha256: createHash('sha256').update(u.buffer).digest('hex'),
      storageKey: `${owner}/${id}`,
      uploadedByUserId: request.uploadedByUserId,
      planId: request.planId ?? null,
      holdingId: request.holdingId ?? null,
      deletedAt: null,
      created: this.clock.now(),
    });
  }

  private async discard(keys: string[]) {
    for (const key of keys) {
      await this.storage.delete(key).catch((err: Error) => {
        this.logger.error(`could not delete ${key} after a failed upload: ${err.message}`);
      });
    }
  }
}

/**
 * A file name as we keep it: the last path segment, without control characters, at most 255
 * characters (the extension kept).
 */
export function cleanName(name: string): string {
  // Control characters, and direction overrides that would make `x\u202Egnp.pdf` look like a .png.
  const base = (name.split(/[\\/]/).pop() ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  if (base.length <= 255) return base || 'file';
  const extension = extensionOf(base);
  return `${base.slice(0, 254 - extension.length)}.${extension}`;
}
