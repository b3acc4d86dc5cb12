import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from './app';

/**
 * A temporary STORAGE_DIR for one test file, made when first asked for (in `beforeAll`, so a
 * filtered-out run leaves nothing behind); `files()` lists every object in it.
 */
export function tempStorage() {
  let made: string | undefined;
  return {
    get dir(): string {
      made ??= mkdtempSync(join(tmpdir(), 'ledgerline-storage-'));
      return made;
    },
    files: (): string[] =>
      made
        ? (readdirSync(made, { recursive: true, withFileTypes: true }) as any[])
            .filter((d) => d.isFile())
            .map((d) => join(d.parentPath ?? d.path, d.name))
        : [],
    remove: () => made && rmSync(made, { recursive: true, force: true }),
  };
}

/**
 * The app storing its files in a temporary directory, for the tests of the calling block: built
 * before them (and handed to `ready`), closed after them and the directory removed.
 */
export function appWithTempStorage(ready: (t: TestApp) => void) {
  const storage = tempStorage();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_DIR: storage.dir } });
    ready(t);
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });
}
