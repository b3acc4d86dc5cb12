import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, QueryFailedError, Repository } from 'typeorm';
import { CapTableCsv, ImportLock, ImportRowError, ImportSummary } from '../../cap-table';
import { AccessContext, DomainError } from '../../common';
import { Env } from '../../config';
import { cleanName, FileStore, Upload } from '../files/file-store.service';
import { extensionOf } from '../files/file-types';
import { StoredFile } from '../files/stored-file.entity';
import { FileRecordView, toFileRecordView } from '../files/stored-file.view';
import { readImportFile } from './import-file';

export interface ImportResult {
  /** The stored file (null on a dry run). */
  file: FileRecordView | null;
  imported: ImportSummary;
}

/**
 * The import reads which members (by address or name) and classes (by name and prefix) exist, then
 * adds the missing ones. A write committed in between (a member given one of the file's addresses,
 * a class of one of its names) makes a unique index refuse the import's insert: it is run again,
 * from the reading on, so that it waits for the writes instead of failing on them. A few times:
 * writes that keep taking the file's names meanwhile get the 409 in the end.
 */
const WRITE_ATTEMPTS = 3;
const takenMeanwhile = (err: unknown) =>
  err instanceof QueryFailedError && (err as QueryFailedError & { code?: string }).code === '23505';

/** Row errors an answer lists at most (`rowErrorCount` says how many there are). */
export const ROW_ERRORS_SHOWN = 1000;

/**
 * Imports a cap table CSV: every row read and checked (form here, the cap table's rules there),
 * every error found at once (the first 1,000 listed, all counted), then all rows applied in one
 * database transaction, which also records the uploaded file (purpose `import`): all of it, or
 * nothing (no member, class, shareholding or file). A dry run does the same in a transaction it
 * rolls back. At most CSV_IMPORT_MAX_ROWS rows (413); one import per organization at a time
 * (ImportLock, OCF imports and dry runs included).
 */
@Injectable()
export class CsvImportService {
  constructor(
    private readonly files: FileStore,
    private readonly capTable: CapTableCsv,
    @InjectRepository(StoredFile) private readonly storedFiles: Repository<StoredFile>,
    private readonly lock: ImportLock,
    private readonly env: Env,
  ) {}

  async import(
    access: AccessContext,
    uploads: Upload[] | undefined,
    dryRun: boolean,
  ): Promise<ImportResult> {
    const upload = this.checked(uploads);
    return this.lock.run(access.organizationId!, () => this.run(access, upload, dryRun));
  }

  private async run(access: AccessContext, upload: Upload, dryRun: boolean): Promise<ImportResult> {
    const file = await readImportFile(upload.buffer, this.env.CSV_IMPORT_MAX_ROWS);
    if ('tooManyRows' in file) {
      throw DomainError.payloadTooLarge(
        `the file has more than ${file.tooManyRows} rows, more than an import takes; nothing was imported`,
      );
    }
    // A file with errors of form is still checked against the cap table, for every error at once.
    if (dryRun || file.errors.length) {
      const outcome = await this.capTable.dryRun(access, file.rows);
      const errors = [...file.errors, ...outcome.errors].sort((a, b) => a.row - b.row);
      if (errors.length) throw refused(errors, outcome.insufficientShares);
      return { file: null, imported: outcome.summary };
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const { files, result } = await this.files.store(
          [upload],
          {
            organizationId: access.organizationId,
            uploadedByUserId: access.userId,
            purpose: 'import',
          },
          async (tx, [stored]) => {
            const outcome = await this.capTable.import(tx, access, file.rows, stored);
            if (outcome.errors.length) throw refused(outcome.errors, outcome.insufficientShares);
            return outcome.summary;
          },
        );
        return { file: toFileRecordView(files[0]), imported: result };
      } catch (err) {
        if (attempt < WRITE_ATTEMPTS && takenMeanwhile(err)) continue;
        throw err;
      }
    }
  }

  /** A file the organization imported (404 for any other file, another organization's too). */
  async importedFile(
    access: AccessContext,
    id: string,
  ): Promise<{ file: StoredFile; bytes: Readable }> {
    // Any member may have the template; an import file is the cap table itself.
    if (!access.permissions.has('canViewCapTable')) {
      throw DomainError.forbidden('requires canViewCapTable');
    }
    const file = await this.storedFiles.findOneBy({
      id,
      organizationId: access.organizationId!,
      purpose: 'import',
      deletedAt: IsNull(),
    });
    if (!file) throw DomainError.notFound('no such import file');
    return { file, bytes: await this.files.open(file) };
  }

  /** One `.csv` file (`missingFileArgument`, `unsupportedFileExtension`). */
  private checked(uploads: Upload[] | undefined): Upload {
    const [upload] = this.files.check(uploads);
    if (extensionOf(cleanName(upload.originalname)) !== 'csv') {
      throw DomainError.keyed(
        'unsupportedFileExtension',
        `${cleanName(upload.originalname)}: an import is a .csv file`,
      );
    }
    return upload;
  }
}

/**
 * 400 `{error, message, rows, rowErrorCount}` (`rows`: the first errors, by row; `rowErrorCount`:
 * all of them), with `key: insufficientShares` when a class runs short.
 */
function refused(errors: ImportRowError[], insufficientShares: boolean): DomainError {
  const message = `${new Set(errors.map((r) => r.row)).size} row(s) cannot be imported; nothing was imported`;
  const body = { rows: errors.slice(0, ROW_ERRORS_SHOWN), rowErrorCount: errors.length };
  return insufficientShares
    ? DomainError.keyed('insufficientShares', message, { body })
    : DomainError.badRequest(message, { body });
}
