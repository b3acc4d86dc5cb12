import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { GcsStorageDriver } from '../../../src/documents/storage/gcs-storage.driver';
import { LocalStorageDriver } from '../../../src/documents/storage/local-storage.driver';
import type { StorageDriver } from '../../../src/documents/storage/storage-driver';
import { FakeGcs } from '../../fakes/gcs';

export const TEST_BUCKET = 'ledgerline-test';

/**
 * Where the tests store objects: a temporary STORAGE_DIR, or a bucket on the fake Cloud Storage
 * server. The same storage is reachable through a driver of its own and through an app
 * started with `env`; `keys()` lists what is really stored there.
 */
export interface StorageBackend {
  name: 'local' | 'gcs';
  /** The app's environment for this storage. */
  env: Record<string, string>;
  driver: StorageDriver;
  /** The keys of every stored object (temporary files included), sorted. */
  keys(): Promise<string[]>;
  /** The fake server, for the gcs backend. */
  fake?: FakeGcs;
  close(): Promise<void>;
}

export async function localBackend(): Promise<StorageBackend> {
  const dir = await mkdtemp(join(tmpdir(), 'ledgerline-storage-'));
  return {
    name: 'local',
    env: { STORAGE_DRIVER: 'local', STORAGE_DIR: dir },
    driver: new LocalStorageDriver(dir),
    keys: async () =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
        .sort(),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function gcsBackend(): Promise<StorageBackend> {
  const fake = await FakeGcs.start();
  return {
    name: 'gcs',
    env: { STORAGE_DRIVER: 'gcs', STORAGE_BUCKET: TEST_BUCKET, STORAGE_API_ENDPOINT: fake.url },
    driver: new GcsStorageDriver({ bucket: TEST_BUCKET, apiEndpoint: fake.url }),
    keys: async () => fake.names(TEST_BUCKET),
    fake,
    close: () => fake.close(),
  };
}

/** For `describe.each`: both drivers. */
export const STORAGE_BACKENDS: [string, () => Promise<StorageBackend>][] = [
  ['local', localBackend],
  ['gcs', gcsBackend],
];

/** All the bytes of a stream. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
