import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../src/common';
import { Env } from '../../../src/config';
import { FileStore, Upload } from '../../../src/documents/files/file-store.service';
import { StoredFile } from '../../../src/documents/files/stored-file.entity';
import { StorageDriver, StorageObjectMissing } from '../../../src/documents/storage/storage-driver';
import { UnitOfWork } from '../../../src/events';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { readAll, STORAGE_BACKENDS, StorageBackend } from './storage-backends';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
  'hex',
);
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
const CSV = Buffer.from('holderName,quantity\nAnn Lee,100\nZoë Ødegård,250\n');

const upload = (originalname: string, buffer: Buffer): Upload => ({
  originalname,
  buffer,
  size: buffer.length,
  fieldname: 'file',
});
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The error a synchronous call throws (failing the test when it throws none). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

describe.each(STORAGE_BACKENDS)('the file store on %s storage', (name, start) => {
  let backend: StorageBackend;
  let t: TestApp;
  let db: DataSource;
  let files: FileStore;
  let org: string;
  let user: string;
  beforeAll(async () => {
    backend = await start();
    t = await createTestApp({ env: backend.env });
    db = t.get(DataSource);
    files = t.get(FileStore);
    const owner = await loggedInAgent(t);
    user = owner.user.id;
    org = (await createOrg(owner.agent)).id;
  });
  afterAll(async () => {
    await t.close();
    await backend.close();
  });

  const request = () => ({
    organizationId: org,
    uploadedByUserId: user,
    purpose: 'document' as const,
  });
  const rowOf = (id: string) => db.getRepository(StoredFile).findOneBy({ id });
  const rowCount = () => db.getRepository(StoredFile).countBy({});
  const eventCount = async () =>
    Number((await db.query(`SELECT count(*) AS n FROM outbox_event`))[0].n);
  const storedBytes = async (key: string) => readAll(await backend.driver.read(key));

  /** What storage and the database hold, to compare before and after a failed store. */
  const snapshot = async () => ({
    keys: await backend.keys(),
    rows: await rowCount(),
    events: await eventCount(),
  });

  describe('storing', () => {
    it('records the row (hash, size, type by extension, key) and writes the object', async () => {
      const { files: stored } = await files.store(
        [upload('Board minutes.pdf', PDF)],
        request(),
        async () => undefined,
      );

      const [file] = stored;
      const row = await rowOf(file.id);
      expect(row).toEqual({
        id: file.id,
        organizationId: org,
        ownerUserId: null,
        purpose: 'document',
        name: 'Board minutes.pdf',
        size: PDF.length,
        contentType: 'application/pdf',
        sha256: sha256(PDF),
        storageKey: `${org}/${file.id}`,
        uploadedByUserId: user,
        planId: null,
        holdingId: null,
        deletedAt: null,
        created: expect.any(Date),
      });
      expect(file).toMatchObject({ ...row, created: expect.any(Date) });
      expect((await storedBytes(row!.storageKey)).equals(PDF)).toBe(true);
      expect((await readAll(await files.open(file))).equals(PDF)).toBe(true);
      if (name === 'gcs') {
        expect(backend.fake!.object('ledgerline-test', row!.storageKey)!.contentType).toBe(
          'application/pdf',
        );
      }
    });

    it('stores several files in one call, in order, each with the content type of its extension', async () => {
      const { files: stored } = await files.store(
        [
          upload('logo.png', PNG),
          upload('PHOTO.JPG', JPEG),
          upload('holders.csv', CSV),
          upload('notes.txt', Buffer.from('plain text')),
        ],
        { ...request(), purpose: 'file' },
        async () => undefined,
      );

      expect(stored.map((f) => [f.name, f.contentType, f.size])).toEqual([
        ['logo.png', 'image/png', PNG.length],
        ['PHOTO.JPG', 'image/jpeg', JPEG.length],
        ['holders.csv', 'text/csv; charset=utf-8', CSV.length],
        ['notes.txt', 'text/plain; charset=utf-8', 10],
      ]);
      expect(new Set(stored.map((f) => f.id)).size).toBe(4);
      const keys = await backend.keys();
      for (const f of stored) {
        expect(keys).toContain(`${org}/${f.id}`);
        expect((await rowOf(f.id))?.purpose).toBe('file');
      }
      expect((await storedBytes(stored[2].storageKey)).equals(CSV)).toBe(true);
    });

    it("keeps a personal file (no organization) under its owner's key", async () => {
      const { files: stored } = await files.store(
        [upload('avatar.png', PNG)],
        { organizationId: null, ownerUserId: user, uploadedByUserId: user, purpose: 'avatar' },
        async () => undefined,
      );
      const [file] = stored;
      expect(await rowOf(file.id)).toMatchObject({
        organizationId: null,
        ownerUserId: user,
        purpose: 'avatar',
        storageKey: `users/${user}/${file.id}`,
      });
      expect((await storedBytes(file.storageKey)).equals(PNG)).toBe(true);
    });

    it('runs the work in the transaction of the rows and records its events with them', async () => {
      const { files: stored, result } = await files.store(
        [upload('plan.pdf', PDF)],
        request(),
        async (tx, inserted) => {
          // The rows are already there inside the transaction (the work may link to them).
          const row = await tx.manager.findOneBy(StoredFile, { id: inserted[0].id });
          await tx.record({
            type: 'document.uploaded',
            organizationId: org,
            actorUserId: user,
            object: { id: inserted[0].id },
          });
          return row?.name;
        },
      );

      expect(result).toBe('plan.pdf');
      const events = await db.query(
        `SELECT type, data FROM outbox_event WHERE organization_id = $1 AND type = 'document.uploaded'`,
        [org],
      );
      expect(events).toEqual([{ type: 'document.uploaded', data: expect.any(Object) }]);
      expect(events[0].data.object).toEqual({ id: stored[0].id });
    });

    it('tells a missing object apart when opening a file', async () => {
      const { files: stored } = await files.store(
        [upload('lost.pdf', PDF)],
        request(),
        async () => undefined,
      );
      await backend.driver.delete(stored[0].storageKey);
      await expect(files.open(stored[0])).rejects.toBeInstanceOf(StorageObjectMissing);
    });
  });

  describe('checking uploads', () => {
    it('refuses a request without files with missingFileArgument', () => {
      for (const uploads of [undefined, []]) {
        expect(thrownBy(() => files.check(uploads))).toMatchObject({
          key: 'missingFileArgument',
          status: 400,
        });
      }
    });

    it.each([
      ['an extension outside the list', 'setup.exe', Buffer.from('MZ\x90\x00')],
      ['no extension', 'README', Buffer.from('text')],
      ['an HTML page', 'page.html', Buffer.from('<html><script>alert(1)</script></html>')],
      ['an SVG image', 'logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['a PNG named .pdf', 'contract.pdf', PNG],
      ['a PDF named .png', 'photo.png', PDF],
      ['a PDF named .jpg', 'photo.jpg', PDF],
      ['a .csv with NUL bytes', 'holders.csv', Buffer.from('name,quantity\nAnn\0,100\n')],
      ['a .csv that is not UTF-8', 'holders.csv', Buffer.from([0x6e, 0xff, 0xfe, 0x0a])],
      ['a .txt that is an executable', 'notes.txt', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x00])],
    ])('refuses %s with unsupportedFileExtension', (_what, originalname, bytes) => {
      expect(thrownBy(() => files.check([upload(originalname, bytes)]))).toMatchObject({
        key: 'unsupportedFileExtension',
        status: 400,
        message: expect.stringContaining(originalname),
      });
    });

    it('accepts upper-case extensions and every allowed type whose bytes match', () => {
      const uploads = [
        upload('SCAN.PDF', PDF),
        upload('logo.png', PNG),
        upload('photo.jpeg', JPEG),
        upload('holders.csv', CSV),
        upload('notes.md', Buffer.from('# Notes\n')),
        upload('empty.txt', Buffer.alloc(0)),
      ];
      expect(files.check(uploads)).toBe(uploads);
    });

    it('refuses the whole upload when one file is refused, before anything is written', async () => {
      const before = await snapshot();
      const failure = await files
        .store([upload('ok.pdf', PDF), upload('bad.exe', PDF)], request(), async () => undefined)
        .catch((err: unknown) => err);
      expect(failure).toMatchObject({ key: 'unsupportedFileExtension' });
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['a Windows path', 'C:\\Users\\ann\\Q3 report.pdf', 'Q3 report.pdf'],
      ['a relative path', '../../etc/board.pdf', 'board.pdf'],
      ['control characters', 'min\u0000u\u0007tes\r\n\u001b.pdf', 'minutes.pdf'],
      ['surrounding blanks', '  deck.pdf  ', 'deck.pdf'],
      ['non-ASCII letters', 'Übersicht – 2024 ✓.pdf', 'Übersicht – 2024 ✓.pdf'],
    ])('keeps the name of a file sent with %s clean', async (_what, sent, kept) => {
      const { files: stored } = await files.store([upload(sent, PDF)], request(), async () => 1);
      expect(stored[0].name).toBe(kept);
      expect((await rowOf(stored[0].id))?.name).toBe(kept);
    });

    it('shortens a 300-character name to 255, keeping the extension', async () => {
      const long = `${'a'.repeat(150)}${'é'.repeat(146)}.pdf`;
      const { files: stored } = await files.store([upload(long, PDF)], request(), async () => 1);
      const kept = (await rowOf(stored[0].id))!.name;
      expect(kept).toHaveLength(255);
      expect(kept.endsWith('é.pdf')).toBe(true);
      expect(long.startsWith(kept.slice(0, 251))).toBe(true);
    });
  });

  describe('a failed store leaves neither a row nor an object', () => {
    /** A driver on the same storage whose `nth` put fails. */
    const failingPut = (inner: StorageDriver, nth: number): StorageDriver => {
      let puts = 0;
      return {
        name: inner.name,
        put: async (key, data, contentType) => {
          if (++puts === nth) throw new Error('storage unavailable');
          return inner.put(key, data, contentType);
        },
        read: (key) => inner.read(key),
        delete: (key) => inner.delete(key),
        exists: (key) => inner.exists(key),
      };
    };

    it('when the work throws (its events are not recorded either)', async () => {
      const before = await snapshot();
      await expect(
        files.store([upload('a.pdf', PDF), upload('b.png', PNG)], request(), async (tx) => {
          await tx.record({ type: 'document.uploaded', organizationId: org, object: {} });
          throw new Error('the work failed');
        }),
      ).rejects.toThrow('the work failed');
      expect(await snapshot()).toEqual(before);
    });

    it('when storage fails on the second of two files', async () => {
      const before = await snapshot();
      const store = new FileStore(
        failingPut(backend.driver, 2),
        t.get(UnitOfWork),
        t.get(Env),
        t.get(Clock),
      );
      await expect(
        store.store([upload('a.pdf', PDF), upload('b.png', PNG)], request(), async () => 1),
      ).rejects.toThrow('storage unavailable');
      expect(await snapshot()).toEqual(before);
    });

    it('when the rows cannot be inserted (an organization that does not exist)', async () => {
      const before = await snapshot();
      await expect(
        files.store(
          [upload('a.pdf', PDF)],
          { ...request(), organizationId: randomUUID() },
          async () => 1,
        ),
      ).rejects.toThrow(/foreign key/);
      expect(await snapshot()).toEqual(before);
    });

    if (name === 'gcs') {
      it('when Cloud Storage refuses the second upload', async () => {
        const before = await snapshot();
        backend.fake!.failNext('upload', 403, { skip: 1 });
        await expect(
          files.store([upload('a.pdf', PDF), upload('b.png', PNG)], request(), async () => 1),
        ).rejects.toMatchObject({ code: 403 });
        expect(await snapshot()).toEqual(before);
      });

      it('the caller sees the failure itself, not the failure to clean up after it', async () => {
        backend.fake!.failNext('delete', 403);
        const before = await snapshot();
        await expect(
          files.store([upload('a.pdf', PDF)], request(), async () => {
            throw new Error('the work failed');
          }),
        ).rejects.toThrow('the work failed');
        // The object the delete could not remove is logged; nothing else is left.
        const after = await snapshot();
        expect({ ...after, keys: after.keys.length }).toEqual({
          ...before,
          keys: before.keys.length + 1,
        });
        for (const key of after.keys.filter((k) => !before.keys.includes(k))) {
          await backend.driver.delete(key);
        }
      });

      // An upload the storage wrote but answered with an error (a timeout, a 5xx after the
      // write) is deleted too.
      it('when the upload fails after Cloud Storage wrote the object', async () => {
        const before = await snapshot();
        backend.fake!.failNext('upload', 403, { store: true });
        await expect(
          files.store([upload('a.pdf', PDF)], request(), async () => 1),
        ).rejects.toMatchObject({ code: 403 });
        expect(await snapshot()).toEqual(before);
      });
    }
  });
});
