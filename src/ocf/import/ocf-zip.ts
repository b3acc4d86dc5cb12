import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { OcfProblem } from './ocf-problems';

/** What an uploaded OCF zip may hold at most (a zip bomb stops at these, whatever its headers say). */
export interface ZipLimits {
  /** Entries, folders included. */
  entries: number;
  /** Uncompressed bytes of one entry. */
  entryBytes: number;
  /** Uncompressed bytes of all entries together. */
  totalBytes: number;
}

/** The defaults of OCF_IMPORT_MAX_ENTRY_MB and OCF_IMPORT_MAX_TOTAL_MB (the service passes the configured ones). */
export const ZIP_LIMITS: ZipLimits = {
  entries: 1000,
  entryBytes: 8 * 1024 * 1024,
  totalBytes: 32 * 1024 * 1024,
};

const MiB = 1024 * 1024;
/** `8 MiB` for whole MiB, else bytes. */
export const sizeText = (bytes: number) =>
  bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`;

export type ZipRead = { files: Map<string, Buffer> } | { problems: OcfProblem[] };

/** `..` segments, absolute paths, drive letters and backslashes: names that could leave a folder. */
function unsafeName(name: string): string | null {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.includes('\\')) return 'a backslash in the name';
  if (name.split('/').some((s) => s === '..')) return 'a ".." segment';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) return 'a control character in the name';
  return null;
}

const refused = (file: string, reason: string): ZipRead => ({
  problems: [{ file, path: '', reason }],
});

/**
 * Reads every file of a zip into memory, refusing the whole zip (a problem naming the entry) when
 * an entry's name could escape a folder, when there are too many entries, or when an entry or all
 * of them inflate past the limits. Sizes are counted on the inflated bytes as they come, not taken
 * from the headers (yauzl also checks each entry against its header). Folders are skipped; names
 * are kept as they are in the zip (`/`-separated).
 */
export async function readZip(buffer: Buffer, limits: ZipLimits = ZIP_LIMITS): Promise<ZipRead> {
  let zip: ZipFile;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(
        buffer,
        { lazyEntries: true, decodeStrings: true, strictFileNames: false },
        (err, z) => (err ? reject(err) : resolve(z)),
      ),
    );
  } catch (err) {
    return refused('', `not a zip file: ${(err as Error).message}`);
  }
  if (zip.entryCount > limits.entries) {
    zip.close();
    return refused('', `the zip has ${zip.entryCount} entries, more than ${limits.entries}`);
  }
  const files = new Map<string, Buffer>();
  let total = 0;
  try {
    for (;;) {
      const entry = await new Promise<Entry | null>((resolve, reject) => {
        const onEntry = (e: Entry) => {
          zip.off('end', onEnd);
          zip.off('error', onError);
          resolve(e);
        };
        const onEnd = () => {
          zip.off('entry', onEntry);
          zip.off('error', onError);
          resolve(null);
        };
        const onError = (err: Error) => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          reject(err);
        };
        zip.once('entry', onEntry);
        zip.once('end', onEnd);
        zip.once('error', onError);
        zip.readEntry();
      });
      if (!entry) break;
      const name = entry.fileName;
      const unsafe = unsafeName(name);
      if (unsafe) return refused(name, `refused: ${unsafe}`);
      if (name.endsWith('/')) continue;
      if (files.has(name)) return refused(name, 'the zip holds two entries of this name');
      if (entry.uncompressedSize > limits.entryBytes) {
        return refused(name, `inflates to more than ${sizeText(limits.entryBytes)}`);
      }
      if (total + entry.uncompressedSize > limits.totalBytes) {
        return refused(name, `the zip inflates to more than ${sizeText(limits.totalBytes)}`);
      }
      const read = await inflate(zip, entry, limits, limits.totalBytes - total);
      if (typeof read === 'string') return refused(name, read);
      total += read.length;
      files.set(name, read);
    }
  } catch (err) {
    return refused('', `not a readable zip file: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
  return { files };
}

/** The entry's bytes, or why they were refused (over a limit). */
function inflate(
  zip: ZipFile,
  entry: Entry,
  { entryBytes, totalBytes }: ZipLimits,
  totalLeft: number,
): Promise<Buffer | string> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > entryBytes || size > totalLeft) {
          stream.destroy();
          resolve(
            size > entryBytes
              ? `inflates to more than ${sizeText(entryBytes)}`
              : `the zip inflates to more than ${sizeText(totalBytes)}`,
          );
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}
