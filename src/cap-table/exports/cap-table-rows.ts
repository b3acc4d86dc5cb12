import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { QueryRunner } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { allowLongStatements } from '../../database';
import { MemberFacts, OrganizationsDirectory } from '../../organizations';
import { emptyState, type LedgerState } from '../ledger/ledger-state';
import { toShareholdingState } from '../ledger/ledger-state-mappers';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { OwnershipColumn } from './ownership-column';

/**
 * One shareholding as the cap table CSV has it (the columns of issue 12, in their order).
 * Decimals as text, dates `YYYY-MM-DD`.
 */
export interface CapTableRow {
  holderName: string;
  holderEmail: string | null;
  security: string;
  classType: string;
  quantity: string;
  pricePerShare: string | null;
  issueDate: string;
  certificateNumber: string;
  status: string;
  /** Of the issued shares the rows add up to, 4 decimals; the column sums to exactly 100. */
  ownershipPercent: string;
}

/**
 * Rows in batches (of up to BATCH, in order), read a batch at a time: a consumer handles a batch
 * in one go, without a promise per row. `close` frees the connection (also done by iterating to
 * the end).
 */
export interface CapTableRowSource extends AsyncIterable<CapTableRow[]> {
  close(): Promise<void>;
}

/** Rows fetched per round trip. */
const BATCH = 1000;

/**
 * The order of the rows: by class name (bytewise, so the order never depends on the server's
 * collation), then by certificate number (the class prefix is the same on each, so shorter is
 * smaller: CS-2 before CS-10), i.e. in issuance order within each class. An import issues the rows
 * in file order, so it numbers the certificates as they were.
 */
const ORDER = `s.name COLLATE "C", length(h.certificate_number), h.certificate_number, h.id`;
const ACTIVE = `h.organization_id = $1 AND h.status = 'active'`;

const QUANTITIES_SQL = `
  SELECT trim_scale(h.quantity)::text AS q
  FROM shareholding h JOIN security s ON s.id = h.security_id
  WHERE ${ACTIVE} ORDER BY ${ORDER}`;

/** The holders of the rows: their names and e-mails are the organizations module's. */
const HOLDERS_SQL = `SELECT DISTINCT h.member_id AS id FROM shareholding h WHERE ${ACTIVE}`;

/**
 * Until the holders' names are filled in, `holderName` carries the holder's member id (the row
 * keeps its columns and their order, and is completed in place).
 */
const ROWS_SQL = `
  SELECT h.member_id::text AS "holderName", NULL::text AS "holderEmail", s.name AS security,
         s.class_type AS "classType", trim_scale(h.quantity)::text AS quantity,
         trim_scale(h.price_per_share)::text AS "pricePerShare",
         to_char(h.issue_date, 'YYYY-MM-DD') AS "issueDate",
         h.certificate_number AS "certificateNumber", h.status
  FROM shareholding h
  JOIN security s ON s.id = h.security_id
  WHERE ${ACTIVE} ORDER BY ${ORDER}`;

type RowWithoutPercent = Omit<CapTableRow, 'ownershipPercent'>;

/**
 * Reads an organization's active shareholdings as CSV rows, in memory that grows with the holders
 * but not with the rows: two passes over server-side cursors in one read-only REPEATABLE READ
 * transaction (the same snapshot for both), the first for the quantities alone (the ownership
 * percentages need the total and the remainders of every row before the first row is written),
 * the second for the rows, whose holders' names (the organizations module's) are read in the same
 * transaction between the two. The transaction and its connection are held until the rows are
 * read or the reader closes.
 */
@Injectable()
export class CapTableRowsReader {
  constructor(
    @InjectRepository(Shareholding) private readonly holdings: Repository<Shareholding>,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async current(organizationId: string): Promise<CapTableRowSource> {
    const runner = this.holdings.manager.connection.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      await runner.query('SET TRANSACTION READ ONLY');
      await allowLongStatements(runner);
      const column = new OwnershipColumn();
      for await (const batch of cursor<{ q: string }>(runner, 'quantities', QUANTITIES_SQL, [
        organizationId,
      ]))
        for (const r of batch) column.add(r.q);
      column.finish();
      const holders = (await runner.query(HOLDERS_SQL, [organizationId])) as { id: string }[];
      const members = await this.organizations.membersById(
        organizationId,
        holders.map((h) => h.id),
        { manager: runner.manager },
      );
      const rows = withHolders(
        cursor<RowWithoutPercent>(runner, 'rows', ROWS_SQL, [organizationId]),
        members,
      );
      return withPercents(rows, column, () => end(runner));
    } catch (err) {
      await end(runner);
      throw err;
    }
  }

  /**
   * The rows of the cap table of a past date (`?asOf=`): each shareholding that held shares
   * then (`held`, from the ledger's moves) with those shares, its other columns as corrected
   * since, its class as it stood then (`securities`); in memory, in the order of `current`.
   */
  async asOf(
    organizationId: string,
    securities: LedgerState['securities'],
    held: { id: string; quantity: string }[],
  ): Promise<CapTableRowSource> {
    const state = emptyState();
    for (const [id, s] of securities) state.securities.set(id, s);
    const quantities = new Map(held.map((h) => [h.id, h.quantity]));
    const holdings = held.length
      ? await this.holdings.findBy({ organizationId, id: In([...quantities.keys()]) })
      : [];
    for (const h of holdings) {
      state.shareholdings.set(h.id, {
        ...toShareholdingState(h),
        quantity: toDecimal(quantities.get(h.id)!),
        status: 'active',
      });
    }
    return this.ofState(organizationId, state);
  }

  /** The rows of a state's active shareholdings, in the order of `current`. */
  private async ofState(organizationId: string, state: LedgerState): Promise<CapTableRowSource> {
    const active = [...state.shareholdings.values()].filter((h) => h.status === 'active');
    const members = await this.organizations.membersById(organizationId, [
      ...new Set(active.map((h) => h.memberId)),
    ]);
    const rows = active
      .map((h) => {
        const s = state.securities.get(h.securityId)!;
        const m = members.get(h.memberId);
        return {
          id: h.id,
          row: {
            holderName: m?.name ?? '',
            holderEmail: m?.email ?? null,
            security: s.name,
            classType: s.classType,
            quantity: toDecimalString(h.quantity),
            pricePerShare: h.pricePerShare,
            issueDate: h.issueDate,
            certificateNumber: h.certificateNumber,
            status: h.status,
          },
        };
      })
      .sort(
        (a, b) =>
          bytewise(a.row.security, b.row.security) ||
          a.row.certificateNumber.length - b.row.certificateNumber.length ||
          bytewise(a.row.certificateNumber, b.row.certificateNumber) ||
          bytewise(a.id, b.id),
      )
      .map((r) => r.row);
    const column = new OwnershipColumn();
    for (const r of rows) column.add(r.quantity);
    column.finish();
    return withPercents(
      (async function* () {
        for (let start = 0; start < rows.length; start += BATCH) {
          yield rows.slice(start, start + BATCH);
        }
      })(),
      column,
      async () => undefined,
    );
  }

  /** Organizations (not deleted) with active shareholdings, by id. */
  async organizationsWithShares(): Promise<string[]> {
    const rows = (await this.holdings.query(
      `SELECT DISTINCT organization_id AS id FROM shareholding WHERE status = 'active' ORDER BY 1`,
    )) as { id: string }[];
    const live = new Set(await this.organizations.liveOrganizations(rows.map((r) => r.id)));
    return rows.map((r) => r.id).filter((id) => live.has(id));
  }
}

/**
 * The batches of ROWS_SQL with their holders' names and e-mails. The holders are read once, before
 * the rows (a query per batch would hold each batch across a round trip, and the garbage of the
 * export would grow with it).
 */
async function* withHolders(
  batches: AsyncGenerator<RowWithoutPercent[]>,
  members: Map<string, MemberFacts>,
): AsyncGenerator<RowWithoutPercent[]> {
  try {
    for await (const batch of batches) {
      for (const row of batch) {
        const m = members.get(row.holderName);
        row.holderName = m?.name ?? '';
        row.holderEmail = m?.email ?? null;
      }
      yield batch;
    }
  } finally {
    await batches.return(undefined);
  }
}

/** The rows of a query, `BATCH` at a time, through a cursor of the runner's transaction. */
async function* cursor<T>(
  runner: QueryRunner,
  name: string,
  sql: string,
  params: unknown[],
): AsyncGenerator<T[]> {
  await runner.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
  for (;;) {
    const batch = (await runner.query(`FETCH ${BATCH} FROM ${name}`)) as T[];
    if (batch.length) yield batch;
    if (batch.length < BATCH) break;
  }
  await runner.query(`CLOSE ${name}`);
}

function withPercents(
  rows: AsyncGenerator<RowWithoutPercent[]>,
  column: OwnershipColumn,
  release: () => Promise<void>,
): CapTableRowSource {
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await rows.return(undefined);
    await release();
  };
  return {
    close,
    async *[Symbol.asyncIterator]() {
      let i = 0;
      try {
        for await (const batch of rows) {
          // The rows are this reader's own: completed in place rather than copied.
          for (const row of batch) (row as CapTableRow).ownershipPercent = column.percent(i++);
          yield batch as CapTableRow[];
        }
      } finally {
        await close();
      }
    },
  };
}

async function end(runner: QueryRunner) {
  if (runner.isReleased) return;
  try {
    if (runner.isTransactionActive) await runner.commitTransaction();
  } finally {
    await runner.release();
  }
}

const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
