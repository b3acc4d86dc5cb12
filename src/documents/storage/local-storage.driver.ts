import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { assertKey, StorageDriver, StorageObjectMissing } from './storage-driver';

/**
 * Files under one folder (STORAGE_DIR). A write goes to a temporary file, flushed to disk, then
 * renamed into place, so a reader never sees half an object and a crash never leaves a row whose
 * file is empty.
 */
export class LocalStorageDriver implements StorageDriver {
  readonly name = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      const file = await open(temporary, 'wx', 0o600);
      try {
        await file.writeFile(data);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async read(key: string): Promise<Readable> {
    const path = this.path(key);
    // Opened first, then checked: a delete between a check and the open cannot turn a missing
    // object into a stream error.
    const file = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new StorageObjectMissing(key);
      throw err;
    });
    if (!(await file.stat()).isFile()) {
      await file.close();
      throw new StorageObjectMissing(key);
    }
    return file.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    const path = this.path(key);
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  private path(key: string): string {
    assertKey(key);
    return join(this.root, ...key.split('/'));
  }
}
