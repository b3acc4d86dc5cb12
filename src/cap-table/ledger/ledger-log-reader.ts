import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { QueryRunner, Repository } from 'typeorm';
import type Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { allowLongStatements, inBatches, InTransaction } from '../../database';
import { EquityTransaction } from './equity-transaction.entity';
import type { LedgerLogAmendment, LedgerLogEntry, LoggedShareholding } from './ledger-log-entry';
import type { TransactionType } from './transaction-types';
import { payloadWithMade, referring } from './transactions';
import { countsFromSql } from '../position/as-of';

type Referral = { type: TransactionType; paths: readonly (readonly string[])[] };

/** A payload path as SQL text: `{conversion,shareholdingId}`. */
const sqlPath = (path: readonly string[]) => `'{${path.join(',')}}'`;
const sqlTypes = (referrals: readonly { type: string }[]) =>
  referrals.map((r) => `'${r.type}'`).join(', ');
/** What the payload of entry `t` names at its type's path (null for other types). */
const payloadAt = (t: string, referrals: readonly Referral[]) => `(CASE ${t}.type
    ${referrals
      .map(({ type, paths }) => `WHEN '${type}' THEN ${t}.payload #>> ${sqlPath(paths[0])}`)
      .join('\n    ')}
  END)`;

/** The types that take shares from a shareholding (a transfer), from their definitions. */
const SOURCE = referring('source');

/**
 * The transfers of the organization in log order: what each took from its source. Read whole
 * before the log (a few rows per transfer, however many shareholdings there are), so that the
 * log query joins nothing but primary keys (a join on an aggregate of the log makes PostgreSQL
 * rescan the log per entry when its statistics are stale, as after a large import).
 */
const TRANSFERS_SQL = `
  SELECT id, sequence::text AS sequence, ${payloadAt('t', SOURCE)} AS source,
         payload->>'quantity' AS quantity
  FROM equity_transaction t WHERE organization_id = $1 AND type IN (${sqlTypes(SOURCE)})
  ORDER BY sequence`;

/** The splits of the organization's classes, with what each shareholding held before each. */
const SPLITS_SQL = `
  SELECT sequence::text AS sequence, payload->'before' AS before
  FROM equity_transaction WHERE organization_id = $1 AND type = 'TX_STOCK_CLASS_SPLIT'
  ORDER BY sequence`;

/** The shareholding an entry created (the types that create one, from their definitions). */
const MADE_ID = `${payloadAt('t', referring('createdShareholding'))}::uuid`;

/**
 * An entry's payload, as the export reads it: the members its OCF export reads when the
 * shareholding it created is joined (which has the rest), or all of it.
 */
const PAYLOAD = `CASE
         ${payloadWithMade()
           .map(
             ({ type, members }) => `WHEN t.type = '${type}' AND m.id IS NOT NULL
           THEN jsonb_build_object(${members.map((k) => `'${k}', t.payload->'${k}'`).join(', ')})`,
           )
           .join('\n         ')}
           ELSE t.payload END`;

const facts = (alias: string, prefix: string) => `
  ${alias}.certificate_number AS "${prefix}Certificate", ${alias}.member_id AS "${prefix}Member",
  ${alias}.security_id AS "${prefix}Security",
  trim_scale(${alias}.price_per_share)::text AS "${prefix}Price",
  ${alias}.legend_ids AS "${prefix}Legends", ${alias}.consideration AS "${prefix}Consideration",
  to_char(${alias}.issue_date, 'YYYY-MM-DD') AS "${prefix}IssueDate"`;

/**
 * The log in recording order, each entry with the shareholding it created (as it stands) and,
 * for a transfer, its source (as it stands): joins on primary keys only.
 */
const LOG_SQL = `
  SELECT t.id, t.type, t.effective_date::text AS "effectiveDate",
         -- An issuance's shareholding row has the rest (and 100,000 of them are most of the log).
         ${PAYLOAD} AS payload,
         ${facts('m', 'made')}, m.id AS "madeId", trim_scale(m.quantity)::text AS "madeQuantity",
         -- A transfer's source, in one column (null on every other entry).
         CASE WHEN s.id IS NOT NULL THEN json_build_object(
           'certificateNumber', s.certificate_number, 'memberId', s.member_id,
           'securityId', s.security_id, 'pricePerShare', trim_scale(s.price_per_share)::text,
           'legendIds', s.legend_ids, 'consideration', s.consideration,
           'issueDate', to_char(s.issue_date, 'YYYY-MM-DD'),
           'quantity', trim_scale(s.quantity)::text) END AS source
  FROM equity_transaction t
  LEFT JOIN shareholding m ON m.id = ${MADE_ID}
  LEFT JOIN shareholding s
    ON t.type IN (${sqlTypes(SOURCE)}) AND s.id = ${payloadAt('t', SOURCE)}::uuid
  WHERE t.organization_id = $1
  ORDER BY t.sequence`;

/** The corrections of issuances, from the definitions of the types that make them. */
const AMENDS = referring('amends');
const AMENDMENTS_SQL = `
  SELECT id, type, effective_date::text AS "effectiveDate",
         ${payloadAt('t', AMENDS)} AS "holdingId", payload->'changes' AS changes
  FROM equity_transaction t
  WHERE organization_id = $1 AND type IN (${sqlTypes(AMENDS)})
  ORDER BY sequence`;

/**
 * The members the log's transactions name (holders, transferees, holders of grants and
 * convertibles, a holding's new holder). With an as-of date, only those named by entries of that
 * date (an issuance counts from its corrected issue date).
 */
const NAMING = referring('members');
const NAMED_MEMBERS_SQL = `
  SELECT DISTINCT v.member::uuid AS id FROM equity_transaction t
  LEFT JOIN shareholding sh
    ON t.type = 'TX_STOCK_ISSUANCE' AND sh.id = (t.payload->>'shareholdingId')::uuid
  CROSS JOIN LATERAL (VALUES ${[...new Set(NAMING.flatMap((n) => n.paths.map(sqlPath)))]
    .map((path) => `(t.payload #>> ${path})`)
    .join(', ')}) v(member)
  WHERE t.organization_id = $1 AND v.member IS NOT NULL
    AND t.type IN (${sqlTypes(NAMING)})
    AND ($2::date IS NULL OR ${countsFromSql('t', 'sh')} <= $2::date)`;

interface RawLogRow {
  id: string;
  type: TransactionType;
  effectiveDate: string;
  payload: Record<string, unknown>;
  madeCertificate: string | null;
  madeMember: string;
  madeSecurity: string;
  madePrice: string | null;
  madeLegends: string[];
  madeConsideration: string | null;
  madeIssueDate: string;
  madeId: string;
  madeQuantity: string;
  source:
    | (Omit<LoggedShareholding, 'legendIds'> & { legendIds: string[] | null; quantity: string })
    | null;
}

/** A change of a shareholding's quantity the log records outside the shareholding's row. */
type Move =
  { sequence: number; transfer: string; quantity: Decimal } | { sequence: number; before: Decimal };

/**
 * What each shareholding held when it was issued and right after each transfer out of it, from
 * its quantity now: plus what transfers took from it since. A split changed the quantity in
 * place, in other units: before the first split after a moment, the quantity is what the split
 * recorded it started from, plus what transfers took between the two.
 */
class HoldingHistory {
  private readonly moves = new Map<string, Move[]>();
  private readonly transfers = new Map<string, { source: string; sequence: number }>();

  constructor(
    transfers: { id: string; sequence: string; source: string; quantity: string }[],
    splits: { sequence: string; before: { shareholdingId: string; quantity: string }[] | null }[],
  ) {
    const add = (holding: string, move: Move) => {
      const list = this.moves.get(holding) ?? [];
      list.push(move);
      this.moves.set(holding, list);
    };
    for (const t of transfers) {
      const sequence = Number(t.sequence);
      this.transfers.set(t.id, { source: t.source, sequence });
      add(t.source, { sequence, transfer: t.id, quantity: toDecimal(t.quantity) });
    }
    for (const split of splits) {
      for (const b of split.before ?? []) {
        add(b.shareholdingId, { sequence: Number(split.sequence), before: toDecimal(b.quantity) });
      }
    }
    for (const list of this.moves.values()) list.sort((a, b) => a.sequence - b.sequence);
  }

  /** What `holding` held after log position `after` (0: as issued), its quantity now being `now`. */
  private heldAfter(holding: string, after: number, now: string): string {
    let taken = toDecimal(0);
    for (const m of this.moves.get(holding) ?? []) {
      if (m.sequence <= after) continue;
      if ('before' in m) return toDecimalString(m.before.plus(taken));
      taken = taken.plus(m.quantity);
    }
    return taken.isZero() ? now : toDecimalString(toDecimal(now).plus(taken));
  }

  issued(holding: string, now: string): string {
    return this.heldAfter(holding, 0, now);
  }

  /** What the source of transfer `id` held right after it. */
  remainder(id: string, now: string): string {
    const t = this.transfers.get(id);
    return t ? this.heldAfter(t.source, t.sequence, now) : now;
  }
}

function toEntry(r: RawLogRow, history: HoldingHistory): LedgerLogEntry {
  return {
    id: r.id,
    type: r.type,
    effectiveDate: r.effectiveDate,
    payload: r.payload,
    made:
      r.madeCertificate === null
        ? null
        : {
            certificateNumber: r.madeCertificate,
            memberId: r.madeMember,
            securityId: r.madeSecurity,
            pricePerShare: r.madePrice,
            legendIds: r.madeLegends ?? [],
            consideration: r.madeConsideration,
            issueDate: r.madeIssueDate,
            issuedQuantity: history.issued(r.madeId, r.madeQuantity),
          },
    source: r.source && {
      certificateNumber: r.source.certificateNumber,
      memberId: r.source.memberId,
      securityId: r.source.securityId,
      pricePerShare: r.source.pricePerShare,
      legendIds: r.source.legendIds ?? [],
      consideration: r.source.consideration,
      issueDate: r.source.issueDate,
      remainder: history.remainder(r.id, r.source.quantity),
    },
  };
}

/**
 * One consistent view of an organization's log for a long read (the OCF export): a read-only
 * REPEATABLE READ transaction on a connection of its own, read through server-side cursors (a
 * batch at a time, so 100,000 entries never sit in memory), until `close`. Other modules read the
 * same moment through `tx` (the members the log names, the organization).
 */
export class LedgerLogSnapshot {
  constructor(private readonly runner: QueryRunner) {}

  /** The snapshot's transaction, for other modules' reads of the same moment. */
  get tx(): InTransaction {
    return { manager: this.runner.manager };
  }

  async amendments(organizationId: string): Promise<LedgerLogAmendment[]> {
    return (await this.runner.query(AMENDMENTS_SQL, [organizationId])) as LedgerLogAmendment[];
  }

  /** The log in recording order, a batch of entries at a time (one round trip each). */
  async *log(organizationId: string): AsyncGenerator<LedgerLogEntry[]> {
    const history = new HoldingHistory(
      await this.runner.query(TRANSFERS_SQL, [organizationId]),
      await this.runner.query(SPLITS_SQL, [organizationId]),
    );
    for await (const batch of inBatches<RawLogRow>(this.tx, LOG_SQL, [organizationId])) {
      yield batch.map((r) => toEntry(r, history));
    }
  }

  /**
   * The ids of the members the log's transactions name (holders, transferees, holders of grants
   * and convertibles, a holding's new holder); with `asOf`, only those of entries of that date.
   */
  async namedMembers(organizationId: string, asOf: string | undefined): Promise<string[]> {
    const rows = (await this.runner.query(NAMED_MEMBERS_SQL, [organizationId, asOf ?? null])) as {
      id: string;
    }[];
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    if (this.runner.isReleased) return;
    try {
      if (this.runner.isTransactionActive) await this.runner.commitTransaction();
    } finally {
      await this.runner.release();
    }
  }
}

/** Opens snapshots of the log for reads that outlast a request's statement limit (exports). */
@Injectable()
export class LedgerLogReader {
  constructor(
    @InjectRepository(EquityTransaction) private readonly log: Repository<EquityTransaction>,
  ) {}

  async open(): Promise<LedgerLogSnapshot> {
    const runner = this.log.manager.connection.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      await runner.query('SET TRANSACTION READ ONLY');
      await allowLongStatements(runner);
    } catch (err) {
      await runner.release();
      throw err;
    }
    return new LedgerLogSnapshot(runner);
  }
}
