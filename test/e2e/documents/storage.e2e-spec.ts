import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { FileStore } from '../../../src/documents/files/file-store.service';
import { GcsStorageDriver } from '../../../src/documents/storage/gcs-storage.driver';
import {
  STORAGE,
  StorageDriver,
  StorageObjectMissing,
} from '../../../src/documents/storage/storage-driver';
import { createTestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import {
  gcsBackend,
  localBackend,
  readAll,
  STORAGE_BACKENDS,
  StorageBackend,
  TEST_BUCKET,
} from './storage-backends';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Every byte value, several times: nothing may be re-encoded on the way. */
const ALL_BYTES = Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256));

describe.each(STORAGE_BACKENDS)('the %s storage driver', (_name, start) => {
  let backend: StorageBackend;
  let storage: StorageDriver;
  beforeEach(async () => {
    backend = await start();
    storage = backend.driver;
  });
  afterEach(() => backend.close());

  const read = async (key: string) => readAll(await storage.read(key));

  it('gives back the bytes it was given, byte for byte', async () => {
    await storage.put('org-1/binary', ALL_BYTES, 'application/octet-stream');
    expect((await read('org-1/binary')).equals(ALL_BYTES)).toBe(true);

    await storage.put('org-1/empty', Buffer.alloc(0), 'text/plain; charset=utf-8');
    expect(await read('org-1/empty')).toHaveLength(0);
  });

  it('round-trips a 5 MB object', async () => {
    const big = randomBytes(5 * 1024 * 1024);
    await storage.put('org-1/big', big, 'application/zip');
    const back = await read('org-1/big');
    expect(back.length).toBe(big.length);
    expect(sha256(back)).toBe(sha256(big));
    expect(back.equals(big)).toBe(true);
  });

  it('tells whether an object exists', async () => {
    expect(await storage.exists('org-1/file')).toBe(false);
    await storage.put('org-1/file', Buffer.from('x'), 'text/plain');
    expect(await storage.exists('org-1/file')).toBe(true);
    expect(await storage.exists('org-1')).toBe(false); // a folder of keys is not an object
    await storage.delete('org-1/file');
    expect(await storage.exists('org-1/file')).toBe(false);
  });

  it('deletes an object and nothing else; deleting again or a missing key does nothing', async () => {
    await storage.put('org-1/a', Buffer.from('a'), 'text/plain');
    await storage.put('org-1/b', Buffer.from('b'), 'text/plain');
    await storage.delete('org-1/a');
    await expect(storage.delete('org-1/a')).resolves.toBeUndefined();
    await expect(storage.delete('org-2/never-stored')).resolves.toBeUndefined();
    expect(await backend.keys()).toEqual(['org-1/b']);
    expect((await read('org-1/b')).toString()).toBe('b');
  });

  it('refuses to read a missing object with StorageObjectMissing', async () => {
    const failure = await storage.read('org-1/missing').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StorageObjectMissing);
    expect(failure).toMatchObject({ key: 'org-1/missing' });

    await storage.put('org-1/gone', Buffer.from('x'), 'text/plain');
    await storage.delete('org-1/gone');
    await expect(storage.read('org-1/gone')).rejects.toBeInstanceOf(StorageObjectMissing);
  });

  it('has no object at a folder of keys nor under the key of an object', async () => {
    await storage.put('org-1/file', Buffer.from('x'), 'text/plain');
    await expect(storage.read('org-1')).rejects.toBeInstanceOf(StorageObjectMissing);
    await expect(storage.read('org-1/file/child')).rejects.toBeInstanceOf(StorageObjectMissing);
    expect(await storage.exists('org-1/file/child')).toBe(false);
  });

  it('keeps keys with folders apart, under the same names', async () => {
    const user = randomUUID();
    const keys = [`users/${user}/${randomUUID()}`, 'org-1/a/b/c', 'org-1/a/b/d', 'org-1/a.b'];
    for (const [i, key] of keys.entries()) {
      await storage.put(key, Buffer.from(`object ${i}`), 'text/plain');
    }
    for (const [i, key] of keys.entries()) {
      expect((await read(key)).toString()).toBe(`object ${i}`);
    }
    expect(await backend.keys()).toEqual([...keys].sort());
  });

  it.each([
    '../x',
    'org-1/../../etc/passwd',
    '/etc/passwd',
    '/absolute/key',
    'a//b',
    'a/',
    './a',
    '.hidden',
    'a\\..\\b',
    'C:\\x',
    'a b',
    '',
  ])('refuses the key %j in every operation, storing nothing', async (key) => {
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(
      /invalid storage key/,
    );
    await expect(storage.read(key)).rejects.toThrow(/invalid storage key/);
    await expect(storage.exists(key)).rejects.toThrow(/invalid storage key/);
    await expect(storage.delete(key)).rejects.toThrow(/invalid storage key/);
    expect(await backend.keys()).toEqual([]);
    // Refused before any request to the service.
    expect(backend.fake?.requests ?? []).toEqual([]);
  });

  it('replaces an object written again under the same key', async () => {
    await storage.put('org-1/file', Buffer.from('first version, longer'), 'text/plain');
    await storage.put('org-1/file', Buffer.from('second'), 'text/plain');
    expect((await read('org-1/file')).toString()).toBe('second');
    expect(await backend.keys()).toEqual(['org-1/file']);
  });
});

describe('the local storage driver on disk', () => {
  let backend: StorageBackend;
  beforeEach(async () => {
    backend = await localBackend();
  });
  afterEach(() => backend.close());

  it('leaves no temporary file behind a write that fails', async () => {
    await backend.driver.put('org-1/a/b', Buffer.from('x'), 'text/plain');
    // The key names an existing folder: the rename of the written temporary file fails.
    await expect(backend.driver.put('org-1/a', Buffer.from('y'), 'text/plain')).rejects.toThrow();
    expect(await backend.keys()).toEqual(['org-1/a/b']);
  });
});

describe('the gcs storage driver against Cloud Storage', () => {
  let backend: StorageBackend;
  let storage: StorageDriver;
  beforeEach(async () => {
    backend = await gcsBackend();
    storage = backend.driver;
  });
  afterEach(() => backend.close());
  const fake = () => backend.fake!;

  it('stores the content type and the hashes of the object under its decoded name', async () => {
    const pdf = Buffer.from('%PDF-1.7\n%%EOF\n');
    await storage.put('org-1/report', pdf, 'application/pdf');
    const stored = fake().object(TEST_BUCKET, 'org-1/report')!;
    expect(stored).toMatchObject({
      contentType: 'application/pdf',
      md5Hash: createHash('md5').update(pdf).digest('base64'),
    });
    expect(stored.data.equals(pdf)).toBe(true);
  });

  it('speaks the JSON API: one multipart upload, metadata and media reads, a delete', async () => {
    await storage.put('org-1/x', Buffer.from('x'), 'text/plain');
    await read(storage, 'org-1/x');
    await storage.delete('org-1/x');
    expect(fake().requests.map((r) => `${r.operation} ${r.method} ${r.url}`)).toEqual([
      `upload POST /upload/storage/v1/b/${TEST_BUCKET}/o?uploadType=multipart&name=org-1%2Fx`,
      `metadata GET /storage/v1/b/${TEST_BUCKET}/o/org-1%2Fx?`,
      `download GET /storage/v1/b/${TEST_BUCKET}/o/org-1%2Fx?alt=media`,
      `delete DELETE /storage/v1/b/${TEST_BUCKET}/o/org-1%2Fx?`,
    ]);
  });

  it('fails a download whose bytes do not match the CRC32C the service reports', async () => {
    await storage.put('org-1/x', Buffer.from('the original bytes'), 'text/plain');
    fake().object(TEST_BUCKET, 'org-1/x')!.data = Buffer.from('the tampered bytes');
    await expect(read(storage, 'org-1/x')).rejects.toThrow(/did not match/);
  });

  it('retries an upload that meets a transient error (503) and stores it once', async () => {
    fake().failNext('upload', 503);
    await storage.put('org-1/x', Buffer.from('x'), 'text/plain');
    expect(fake().requests.filter((r) => r.operation === 'upload')).toHaveLength(2);
    expect(await backend.keys()).toEqual(['org-1/x']);
  });

  it('fails an upload the service refuses (403), storing nothing', async () => {
    fake().failNext('upload', 403);
    await expect(storage.put('org-1/x', Buffer.from('x'), 'text/plain')).rejects.toMatchObject({
      code: 403,
    });
    expect(await backend.keys()).toEqual([]);
  });

  it('passes on a service error other than "not found" when reading', async () => {
    await storage.put('org-1/x', Buffer.from('x'), 'text/plain');
    fake().failNext('metadata', 403);
    await expect(storage.read('org-1/x')).rejects.toMatchObject({ code: 403 });
  });
});

describe('the app with STORAGE_DRIVER=gcs', () => {
  it('starts with the Cloud Storage driver and stores uploads in the bucket', async () => {
    const backend = await gcsBackend();
    const t = await createTestApp({ env: backend.env });
    try {
      expect(t.get(STORAGE)).toBeInstanceOf(GcsStorageDriver);
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      const files = t.get<FileStore>(FileStore);

      const { files: stored, result } = await files.store(
        [{ originalname: 'minutes.pdf', buffer: pdf, size: pdf.length }],
        { organizationId: org.id, uploadedByUserId: owner.user.id, purpose: 'document' },
        async () => 'recorded',
      );

      expect(result).toBe('recorded');
      const [file] = stored;
      expect(file.storageKey).toBe(`${org.id}/${file.id}`);
      expect(await backend.keys()).toEqual([file.storageKey]);
      expect(backend.fake!.object(TEST_BUCKET, file.storageKey)!.contentType).toBe(
        'application/pdf',
      );
      expect((await readAll(await files.open(file))).equals(pdf)).toBe(true);
    } finally {
      await t.close();
      await backend.close();
    }
  });
});

async function read(storage: StorageDriver, key: string) {
  return readAll(await storage.read(key));
}
