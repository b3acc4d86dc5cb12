import { Injectable } from '@nestjs/common';
import { In, ObjectLiteral } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { InTransaction } from '../../database';
import { CapitalChange } from '../capital-changes/capital-change.entity';
import { Holding } from '../holdings/holding.entity';
import { Legend } from '../legends/legend.entity';
import { Security } from '../securities/security.entity';
import { ShareBlock } from '../shareholdings/share-block.entity';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { Valuation } from '../valuations/valuation.entity';
import { EquityTransaction } from './equity-transaction.entity';
import { writeChanges } from './changes-writer';
import {
  INCENTIVE_ROWS,
  incentiveClasses,
  loadIncentives,
  toHoldingState,
} from './incentive-store';
import { emptyState, LedgerState, RECORD_KINDS, RecordKind } from './ledger-state';
import {
  fromLegendState,
  fromSecurityState,
  fromShareholdingState,
  toCapitalChangeRecord,
  toLegendState,
  toSecurityState,
  toShareholdingState,
  toValuationRecord,
} from './ledger-state-mappers';
import type { LedgerScope } from './ledger-scope';
import { LedgerMove } from './moves/ledger-move.entity';
import { MoveBaseline, redating } from './moves/moves';
import { applyTransaction } from './reducer';
import type { LedgerTransaction } from './transaction-types';

export type { LedgerScope } from './ledger-scope';

/**
 * What one transaction wrote, by record id: each row as its entity (the state's record with the
 * organization and the database's created and updated times), so a caller answers without
 * reading it back.
 */
export type Written = Map<string, ObjectLiteral>;

const FOR_UPDATE = { mode: 'pessimistic_write' } as const;
const FOR_SHARE = { mode: 'pessimistic_read' } as const;

/**
 * The cap table's persistence: loads (and locks) the records a change needs into a LedgerState,
 * runs the change through the same reducer a replay uses, then writes the records it touched and
 * appends the transaction to the log, all in the caller's database transaction. Locks are taken
 * in one order (classes, holdings, legends), sorted by id, so concurrent writes cannot deadlock.
 */
@Injectable()
export class LedgerStore {
  /** Each loaded state's records as their moves last left them (see MoveBaseline). */
  private readonly baselines = new WeakMap<LedgerState, MoveBaseline>();

  async load(tx: InTransaction, organizationId: string, scope: LedgerScope): Promise<LedgerState> {
    const m = tx.manager;
    const state = emptyState();
    const byIds = <T>(ids: string[] | undefined) =>
      ({ where: { organizationId, id: In([...new Set(ids)].sort()) }, order: { id: 'ASC' } }) as T;

    const incentives = await incentiveClasses(tx, organizationId, scope);
    scope = {
      ...incentives.scope,
      securities: [...(scope.securities ?? []), ...incentives.securities],
    };
    const holdingIds = sortedIds(scope.shareholdings);
    if (scope.securities?.length || holdingIds.length) {
      // The classes first, the holdings' classes with them (one statement): every change to a
      // class's shares serialises on it.
      const rows = await m
        .getRepository(Security)
        .createQueryBuilder('s')
        .where('s.organization_id = :organizationId', { organizationId })
        .andWhere(
          '(s.id = ANY(:ids) OR s.id IN (SELECT h.security_id FROM shareholding h WHERE h.organization_id = :organizationId AND h.id = ANY(:holdingIds)))',
          { ids: sortedIds(scope.securities), holdingIds },
        )
        .orderBy('s.id')
        .setLock('pessimistic_write')
        .getMany();
      for (const s of rows) state.securities.set(s.id, toSecurityState(s));
    }
    if (holdingIds.length) await this.loadHoldings(tx, organizationId, state, holdingIds, true);
    if (scope.holdingsOfClass) {
      // The class is locked: no holding of it changes meanwhile.
      const rows = await m.getRepository(Shareholding).find({
        where: { organizationId, securityId: scope.holdingsOfClass, status: 'active' },
        select: { id: true },
      });
      await this.loadHoldings(
        tx,
        organizationId,
        state,
        rows.map((h) => h.id),
        true,
      );
      // And its outstanding rights to shares (warrants): a split must not leave them behind.
      const rights = await m.getRepository(Holding).find({
        where: { organizationId, securityId: scope.holdingsOfClass, status: 'active' },
      });
      for (const h of rights) state.holdings.set(h.id, toHoldingState(h));
    }
    await loadIncentives(tx, organizationId, scope, state);
    const legendIds = [
      ...(scope.legends ?? []),
      ...(scope.legendToDelete ? [scope.legendToDelete] : []),
    ];
    if (legendIds.length) {
      const lock = scope.legendToDelete ? FOR_UPDATE : FOR_SHARE;
      const rows = await m.getRepository(Legend).find({ ...byIds(legendIds), lock });
      for (const l of rows) state.legends.set(l.id, toLegendState(l));
    }
    if (scope.legendToDelete) {
      // Read once the legend is locked: every change that puts a legend on a holding share-locks
      // it, so those have committed by now and later ones wait for the deletion.
      const carriers = await m
        .getRepository(Shareholding)
        .createQueryBuilder('h')
        .select('h.id', 'id')
        .where(
          "h.organization_id = :organizationId AND h.status = 'active' AND :legend = ANY(h.legend_ids)",
          { organizationId, legend: scope.legendToDelete },
        )
        .getRawMany<{ id: string }>();
      await this.loadHoldings(
        tx,
        organizationId,
        state,
        carriers.map((c) => c.id),
        false,
      );
    }
    if (scope.valuations?.length) {
      const rows = await m
        .getRepository(Valuation)
        .find({ ...byIds(scope.valuations), lock: FOR_UPDATE });
      for (const v of rows) state.valuations.set(v.id, toValuationRecord(v));
    }
    if (scope.capitalChanges?.length) {
      const rows = await m
        .getRepository(CapitalChange)
        .find({ ...byIds(scope.capitalChanges), lock: FOR_UPDATE });
      for (const c of rows) state.capitalChanges.set(c.id, toCapitalChangeRecord(c));
    }
    this.baselines.set(state, MoveBaseline.of(state));
    return state;
  }

  /** Shareholdings with their share blocks, in one statement (locked in id order if `lock`). */
  private async loadHoldings(
    tx: InTransaction,
    organizationId: string,
    state: LedgerState,
    ids: string[],
    lock: boolean,
  ) {
    if (!ids.length) return;
    const query = tx.manager
      .getRepository(Shareholding)
      .createQueryBuilder('h')
      .addSelect(
        `coalesce((SELECT json_agg(json_build_object('from', b.from_number::text, 'to', b.to_number::text) ORDER BY b.from_number)
                   FROM share_block b WHERE b.shareholding_id = h.id), '[]')`,
        'blocks',
      )
      .where('h.organization_id = :organizationId AND h.id = ANY(:ids)', {
        organizationId,
        ids: sortedIds(ids),
      })
      .orderBy('h.id');
    if (lock) query.setLock('pessimistic_write', undefined, ['h']);
    const { entities, raw } = await query.getRawAndEntities<{
      h_id: string;
      blocks: { from: string; to: string }[];
    }>();
    const blocks = new Map(raw.map((r) => [r.h_id, r.blocks]));
    for (const h of entities) {
      state.shareholdings.set(h.id, toShareholdingState(h));
      state.blocks.set(
        h.id,
        (blocks.get(h.id) ?? []).map((b) => ({ from: toDecimal(b.from), to: toDecimal(b.to) })),
      );
    }
  }

  /**
   * Applies the transaction to the loaded state (throwing LedgerRuleError when it breaks an
   * invariant), then writes what it changed and appends it to the log in one statement. Answers
   * what it changed: the records are in `state`.
   */
  async apply(
    tx: InTransaction,
    organizationId: string,
    actorUserId: string | null,
    state: LedgerState,
    transaction: LedgerTransaction,
    /** When it is written (a deletion's time). */
    now: Date,
    /** Given: each kind of record the transaction changed is added to it. */
    touched?: Set<RecordKind>,
  ): Promise<Written> {
    state.takeChanges();
    applyTransaction(state, transaction);
    const changes = state.takeChanges();
    for (const kind of RECORD_KINDS) if (changes[kind].size) touched?.add(kind);
    const written: Written = new Map();
    const rows = <T>(
      ids: Set<string>,
      map: Map<string, T>,
      row: (record: T, now: Date) => object,
    ) =>
      [...ids].map((id) => {
        const r: ObjectLiteral = { organizationId, ...row(map.get(id)!, now) };
        written.set(id, r);
        return r;
      });
    const holdings = [...changes.shareholdings];
    // A state this store did not load starts empty (an import's, a new organization's).
    let baseline = this.baselines.get(state);
    if (!baseline) this.baselines.set(state, (baseline = MoveBaseline.of(emptyState())));
    const moves = baseline.moves(organizationId, transaction, state, changes);
    const stamps = await writeChanges(tx, {
      // Classes before holdings: the order their foreign keys read.
      upserts: [
        { entity: Security, rows: rows(changes.securities, state.securities, fromSecurityState) },
        { entity: Legend, rows: rows(changes.legends, state.legends, fromLegendState) },
        {
          entity: Shareholding,
          rows: rows(changes.shareholdings, state.shareholdings, fromShareholdingState),
        },
        { entity: Valuation, rows: rows(changes.valuations, state.valuations, (v) => v) },
        ...(Object.keys(INCENTIVE_ROWS) as (keyof typeof INCENTIVE_ROWS)[]).map((kind) => ({
          entity: INCENTIVE_ROWS[kind].entity,
          rows: rows(
            changes[kind],
            state[kind] as Map<string, never>,
            INCENTIVE_ROWS[kind].row as (r: never, now: Date) => object,
          ),
        })),
        {
          entity: CapitalChange,
          rows: rows(changes.capitalChanges, state.capitalChanges, (c) => c),
        },
      ],
      replaceBlocksOf: { entity: ShareBlock, shareholdingIds: holdings },
      inserts: [
        {
          entity: ShareBlock,
          rows: holdings.flatMap((id) =>
            (state.blocks.get(id) ?? []).map((b) => ({
              organizationId,
              securityId: state.shareholdings.get(id)!.securityId,
              shareholdingId: id,
              fromNumber: toDecimalString(b.from),
              toNumber: toDecimalString(b.to),
            })),
          ),
        },
        {
          entity: EquityTransaction,
          rows: [
            {
              id: transaction.id,
              organizationId,
              type: transaction.type,
              effectiveDate: transaction.effectiveDate,
              actorUserId,
              payload: transaction.payload,
            },
          ],
        },
        { entity: LedgerMove, rows: moves },
      ],
    });
    const redate = redating(transaction);
    if (redate) {
      await tx.manager.query(
        `UPDATE ledger_move SET effective_date = $3 WHERE organization_id = $1 AND dated_by = $2`,
        [organizationId, redate.datedBy, redate.date],
      );
    }
    for (const [id, row] of written) {
      const stamp = stamps.get(id);
      if (stamp) Object.assign(row, stamp);
    }
    return written;
  }
}

const sortedIds = (ids: string[] | undefined) => [...new Set(ids ?? [])].sort();
