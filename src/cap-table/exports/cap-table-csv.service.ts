import { Injectable } from '@nestjs/common';
import { AccessContext, Clock, DomainError } from '../../common';
import { Tx, UnitOfWork } from '../../events';
import { PositionReader } from '../position/position-reader';
import {
  CapTableImport,
  CapTableImportRow,
  ImportOutcome,
  ImportSource,
} from './cap-table-import.service';
import { CapTableRowSource, CapTableRowsReader } from './cap-table-rows';

export type { CapTableRow, CapTableRowSource } from './cap-table-rows';
export type {
  CapTableImportRow,
  ImportOutcome,
  ImportRowError,
  ImportSource,
  ImportSummary,
} from './cap-table-import.service';

/** Thrown to roll a dry run's transaction back once it has done everything an import does. */
class DryRunDone extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('dry run');
  }
}

/**
 * The cap table as rows for CSV: streamed out (export), and applied from rows as ledger
 * transactions in one database transaction (import). The documents module reads and writes the
 * CSV text.
 */
@Injectable()
export class CapTableCsv {
  constructor(
    private readonly reader: CapTableRowsReader,
    private readonly importer: CapTableImport,
    private readonly positions: PositionReader,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * The organization's active shareholdings as rows: from the current tables, streamed; or as
   * they stood on `asOf` (the ledger's moves, as the dashboard's position), held in memory.
   */
  async rows(organizationId: string, asOf?: string): Promise<CapTableRowSource> {
    if (!asOf) return this.reader.current(organizationId);
    if (asOf > this.clock.today()) throw DomainError.badRequest('asOf must not be in the future');
    const [position, held] = await Promise.all([
      this.positions.positionAsOf(organizationId, asOf),
      this.positions.shareholdingsAsOf(organizationId, asOf),
    ]);
    return this.reader.asOf(organizationId, position.state.securities, held);
  }

  /** The organizations (not deleted) with active shareholdings, for the site-wide export. */
  organizationsWithShares(): Promise<string[]> {
    return this.reader.organizationsWithShares();
  }

  /**
   * Applies the rows in the caller's transaction (the import's, which also records its file). When
   * the outcome has errors nothing may be kept: the caller throws, rolling everything back.
   */
  import(
    tx: Tx,
    access: AccessContext,
    rows: CapTableImportRow[],
    source: ImportSource,
  ): Promise<ImportOutcome> {
    return this.importer.run(tx, access, rows, source);
  }

  /**
   * What an import of the rows would do (or which rows it would refuse), changing nothing: the
   * import's checks, in a transaction that is rolled back, without writing the rows.
   */
  async dryRun(access: AccessContext, rows: CapTableImportRow[]): Promise<ImportOutcome> {
    try {
      await this.uow.run(async (tx) => {
        throw new DryRunDone(await this.importer.run(tx, access, rows, null, false));
      });
    } catch (err) {
      if (err instanceof DryRunDone) return err.outcome;
      throw err;
    }
    throw new Error('unreachable: a dry run always rolls back');
  }
}
