import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import * as archiverModule from 'archiver';
import type { Archiver, ArchiverOptions } from 'archiver';

/**
 * archiver 7 (the installed one) exports a function `(format, options) → Archiver`;
 * @types/archiver 8 describes archiver 8's classes instead. The function, typed.
 */
const createArchive = (
  archiverModule as unknown as {
    default: (format: 'zip', options?: ArchiverOptions) => Archiver;
  }
).default;

/** The files of a package, named by their file types (the samples call the legends file StockLegends). */
export const OCF_FILES = {
  stakeholders: {
    name: 'Stakeholders.ocf.json',
    fileType: 'OCF_STAKEHOLDERS_FILE',
    manifestKey: 'stakeholders_files',
  },
  stockClasses: {
    name: 'StockClasses.ocf.json',
    fileType: 'OCF_STOCK_CLASSES_FILE',
    manifestKey: 'stock_classes_files',
  },
  stockLegendTemplates: {
    name: 'StockLegendTemplates.ocf.json',
    fileType: 'OCF_STOCK_LEGEND_TEMPLATES_FILE',
    manifestKey: 'stock_legend_templates_files',
  },
  stockPlans: {
    name: 'StockPlans.ocf.json',
    fileType: 'OCF_STOCK_PLANS_FILE',
    manifestKey: 'stock_plans_files',
  },
  vestingTerms: {
    name: 'VestingTerms.ocf.json',
    fileType: 'OCF_VESTING_TERMS_FILE',
    manifestKey: 'vesting_terms_files',
  },
  valuations: {
    name: 'Valuations.ocf.json',
    fileType: 'OCF_VALUATIONS_FILE',
    manifestKey: 'valuations_files',
  },
  transactions: {
    name: 'Transactions.ocf.json',
    fileType: 'OCF_TRANSACTIONS_FILE',
    manifestKey: 'transactions_files',
  },
  documents: {
    name: 'Documents.ocf.json',
    fileType: 'OCF_DOCUMENTS_FILE',
    manifestKey: 'documents_files',
  },
} as const;

export type OcfFileKey = keyof typeof OCF_FILES;
export const MANIFEST_NAME = 'Manifest.ocf.json';

/** JSON text is handed to the zip in pieces of about this size. */
const CHUNK = 16 * 1024;

/**
 * `{"file_type": ..., "items": [...]}` written as the items come, a batch at a time (a batch of
 * rows is mapped and written without an await per item: 100,000 items stream with little
 * garbage).
 */
export async function* ocfFileText(
  fileType: string,
  batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
): AsyncGenerator<string> {
  let text = `{"file_type":${JSON.stringify(fileType)},"items":[`;
  let first = true;
  for await (const items of batches) {
    for (const item of items) {
      text += (first ? '\n' : ',\n') + JSON.stringify(item);
      first = false;
      // Handed on in small pieces: a string over V8's regular object size (128 KB) would be
      // made flat in the old generation, growing the heap until the next full collection.
      if (text.length >= CHUNK) {
        yield text;
        text = '';
      }
    }
  }
  yield `${text}${first ? '' : '\n'}]}\n`;
}

/**
 * A zip written entry by entry into `out` (archiver), each entry's MD5 taken as it passes (the
 * manifest lists them). Entries are added one at a time, the next once the previous is in the
 * zip, so a generator reading the database runs only while its entry is written.
 */
export class OcfZip {
  private readonly archive = createArchive('zip', { zlib: { level: 6 } });
  readonly md5 = new Map<string, string>();
  /** Settles when the response is done: finished, closed (the client went away) or failed. */
  readonly done: Promise<void>;
  private finished = false;
  private closedEarly = false;

  constructor(out: NodeJS.WritableStream) {
    this.archive.pipe(out);
    this.done = new Promise((resolve, reject) => {
      this.archive.on('error', reject);
      this.archive.on('warning', reject);
      out.on('finish', () => resolve());
      out.on('close', () => {
        if (!this.finished) this.closedEarly = true;
        resolve();
      });
      out.on('error', reject);
    });
    // Settled by whoever awaits it; never an unhandled rejection.
    this.done.catch(() => undefined);
  }

  private assertOpen() {
    if (this.closedEarly) {
      throw Object.assign(new Error('the client went away'), {
        code: 'ERR_STREAM_PREMATURE_CLOSE',
      });
    }
  }

  /** Adds `name` with the text `chunks` yields; resolves once it is in the zip. */
  async add(name: string, chunks: AsyncIterable<string>): Promise<void> {
    this.assertOpen();
    const hash = createHash('md5');
    async function* hashed() {
      for await (const chunk of chunks) {
        const bytes = Buffer.from(chunk, 'utf8');
        hash.update(bytes);
        yield bytes;
      }
    }
    const entry = once(this.archive, 'entry');
    this.archive.append(Readable.from(hashed(), { highWaterMark: 1 }), { name, date: new Date(0) });
    await Promise.race([entry, this.done]);
    this.assertOpen();
    this.md5.set(name, hash.digest('hex'));
  }

  async finish(): Promise<void> {
    this.assertOpen();
    this.finished = true;
    await this.archive.finalize();
    await this.done;
  }

  abort(): void {
    this.archive.abort();
  }
}
