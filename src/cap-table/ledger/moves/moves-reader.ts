import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { toDecimal } from '../../../../libs/cap-math';
import { emptyState, type LedgerState } from '../ledger-state';
import { DECIMAL_FIELD, MOVED_KINDS, type MovedKind } from './moves';

/** A member's active shares of one class (or of one shareholding) on a date. */
export interface SharesRow {
  memberId: string;
  securityId: string;
  quantity: string;
}

/**
 * Active shares by member and class on `date`: the shareholdings' moves summed, of those made by
 * then (see `LedgerMove.creates`).
 */
export async function sharesAsOf(
  m: EntityManager,
  organizationId: string,
  date: string,
): Promise<SharesRow[]> {
  return (await m.query(
    `SELECT member_id AS "memberId", security_id AS "securityId", sum(quantity)::text AS quantity
     FROM (SELECT member_id, security_id, sum(quantity) AS quantity
           FROM ledger_move
           WHERE organization_id = $1 AND kind = 'shareholdings' AND effective_date <= $2
           GROUP BY record_id, member_id, security_id HAVING bool_or(creates)) h
     GROUP BY member_id, security_id HAVING sum(quantity) > 0`,
    [organizationId, date],
  )) as SharesRow[];
}

/** Each shareholding's active shares on `date`, those that had any. */
export async function shareholdingsAsOf(
  m: EntityManager,
  organizationId: string,
  date: string,
): Promise<(SharesRow & { id: string })[]> {
  return (await m.query(
    `SELECT record_id AS id, member_id AS "memberId", security_id AS "securityId",
            sum(quantity)::text AS quantity
     FROM ledger_move
     WHERE organization_id = $1 AND kind = 'shareholdings' AND effective_date <= $2
     GROUP BY record_id, member_id, security_id HAVING bool_or(creates) AND sum(quantity) > 0`,
    [organizationId, date],
  )) as (SharesRow & { id: string })[];
}

/**
 * The classes, plans, pools, grants, warrants, notes, SAFEs and vesting schedules as they stood
 * on `date`, from their moves: each field as last set on or before it (in recording order, as a
 * replay sets it), each decimal the sum of its deltas. A record is there once it was made; in the
 * order they were made, as a replay makes them.
 */
export async function recordsAsOf(
  m: EntityManager,
  organizationId: string,
  date: string,
  state: LedgerState = emptyState(),
): Promise<LedgerState> {
  // One indexed read of the moves, merged here in recording order: expanding each move's JSON
  // into rows in SQL cost more than the merge (5,000 grants: see docs/performance.md).
  const rows = (await m.query(
    `SELECT m.kind, m.record_id AS id, m.fields, m.deltas FROM ledger_move m
     WHERE m.organization_id = $1 AND m.kind <> 'shareholdings' AND m.effective_date <= $2
     ORDER BY m.id`,
    [organizationId, date],
  )) as {
    kind: MovedKind;
    id: string;
    fields: Record<string, unknown> | null;
    deltas: Record<string, string> | null;
  }[];
  const records = new Map<
    string,
    { kind: MovedKind; fields: Record<string, unknown>; sums: Map<string, Decimal> }
  >();
  for (const r of rows) {
    const key = `${r.kind}:${r.id}`;
    let entry = records.get(key);
    if (!entry) records.set(key, (entry = { kind: r.kind, fields: {}, sums: new Map() }));
    for (const [field, delta] of Object.entries(r.deltas ?? {}))
      entry.sums.set(field, (entry.sums.get(field) ?? toDecimal(0)).plus(delta));
    // A record's id is set once, when it is made: the map keeps that order, a replay's.
    if (r.fields) Object.assign(entry.fields, r.fields);
  }
  for (const { kind, fields, sums } of records.values()) {
    if (fields.id === undefined || !(MOVED_KINDS as readonly string[]).includes(kind)) continue;
    const record: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields))
      record[field] = value === DECIMAL_FIELD ? (sums.get(field) ?? toDecimal(0)) : value;
    (state[kind] as Map<string, unknown>).set(record.id as string, record);
  }
  return state;
}

/**
 * Whether the moves make the position of `date`. Not when a move that sets or scales a value
 * (`LedgerMove.resets`: a split, a correction ...) and counts by then was recorded after a move
 * of the same record that counts only later: it was computed on the record with that later
 * change, which a replay of `date` does not apply. There the lenient replay serves
 * (`PositionReader`), and `ledger:verify` has nothing to compare.
 */
export async function movesServe(
  m: EntityManager,
  organizationId: string,
  date: string,
): Promise<boolean> {
  const [row] = (await m.query(
    `SELECT NOT EXISTS (
       SELECT 1 FROM ledger_move b
       WHERE b.organization_id = $1 AND b.resets AND b.effective_date <= $2
         AND EXISTS (SELECT 1 FROM ledger_move e
                     WHERE e.record_id = b.record_id AND e.id < b.id
                       AND e.organization_id = $1 AND e.effective_date > $2)) AS serve`,
    [organizationId, date],
  )) as { serve: boolean }[];
  return row.serve;
}
