import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { emptyState, LedgerRuleError } from '../ledger-state';
import { applyTransaction } from '../reducer';
import type { LedgerTransaction } from '../transaction-types';
import { LedgerMove } from './ledger-move.entity';
import { MoveBaseline, MoveRow, redating } from './moves';

/** Rows per insert. */
const BATCH = 4_000;

/**
 * The moves of an organization's whole log, as its writes would have made them: the log replayed
 * in recording order, each entry's moves from what it changed, an issue date's correction
 * re-dating the moves of its holding.
 */
export function movesOfLog(organizationId: string, log: Iterable<LedgerTransaction>): MoveRow[] {
  const state = emptyState();
  const baseline = MoveBaseline.of(state);
  const rows: MoveRow[] = [];
  const byHolding = new Map<string, MoveRow[]>();
  for (const tx of log) {
    state.takeChanges();
    try {
      applyTransaction(state, tx, false);
    } catch (err) {
      // As the lenient replay: an entry about a record that is not there moves nothing.
      if (!(err instanceof LedgerRuleError && err.rule === 'notFound')) throw err;
    }
    for (const move of baseline.moves(organizationId, tx, state, state.takeChanges())) {
      rows.push(move);
      if (move.datedBy) {
        const dated = byHolding.get(move.datedBy) ?? [];
        dated.push(move);
        byHolding.set(move.datedBy, dated);
      }
    }
    const redate = redating(tx);
    if (redate)
      for (const move of byHolding.get(redate.datedBy) ?? []) move.effectiveDate = redate.date;
  }
  return rows;
}

/** Replaces an organization's moves with those of its log, in the caller's transaction. */
export async function rebuildMoves(m: EntityManager, organizationId: string): Promise<number> {
  // Writes wait (their moves go in with their log entry): the log read next is all there is.
  await m.query(`LOCK TABLE ledger_move IN SHARE ROW EXCLUSIVE MODE`);
  await m.query(`DELETE FROM ledger_move WHERE organization_id = $1`, [organizationId]);
  const log = (await m.query(
    `SELECT id, type, effective_date::text AS "effectiveDate", payload
     FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
    [organizationId],
  )) as LedgerTransaction[];
  const rows = movesOfLog(organizationId, log);
  for (let start = 0; start < rows.length; start += BATCH)
    await m.getRepository(LedgerMove).insert(rows.slice(start, start + BATCH) as never);
  return rows.length;
}

/**
 * At start-up, makes the moves of the organizations the moves' migration listed (their logs
 * predate them), one transaction each; a start that finds none does nothing.
 */
@Injectable()
export class MovesBackfill implements OnApplicationBootstrap {
  private readonly logger = new Logger(MovesBackfill.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    // An organization whose log does not replay keeps its row (ledger:verify reports it) and is
    // passed over until the next start.
    const failed: string[] = [];
    for (;;) {
      let next: string | undefined;
      try {
        next = await this.dataSource.transaction(async (m) => {
          const [row] = (await m.query(
            `SELECT organization_id AS id FROM ledger_move_backfill
             WHERE organization_id <> ALL($1::uuid[]) LIMIT 1 FOR UPDATE SKIP LOCKED`,
            [failed],
          )) as { id: string }[];
          if (!row) return undefined;
          next = row.id;
          await m.query(`DELETE FROM ledger_move_backfill WHERE organization_id = $1`, [row.id]);
          const moves = await rebuildMoves(m, row.id);
          this.logger.log(`moves of ${row.id}: ${moves} made from its log`);
          return row.id;
        });
      } catch (err) {
        if (!next) throw err;
        failed.push(next);
        this.logger.error(`moves of ${next} not made: ${(err as Error).message}`);
        continue;
      }
      if (!next) return;
    }
  }
}
