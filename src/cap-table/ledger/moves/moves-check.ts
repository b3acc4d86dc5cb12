import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { replayAsOf } from '../../position/as-of';
import { addShares, positionOf, type Position } from '../../position/position';
import type { LedgerTransaction } from '../transaction-types';
import { MOVED_KINDS, UNMOVED_FIELDS } from './moves';
import { movesServe, recordsAsOf, sharesAsOf } from './moves-reader';

/** A field of the position of `date` on which the moves and the replay disagree. */
export interface MoveDifference {
  date: string;
  record: string;
  id: string;
  field: string;
  replayed: unknown;
  moved: unknown;
}

/** Dates compared at most: the first and the last, and as many spread between. */
const SAMPLE = 24;

/**
 * The dates a log's positions are compared on: every date an entry counts from (its effective
 * date, an issuance's corrected issue date), the day before the first; a sample of them,
 * the first and the last always, when there are more than SAMPLE.
 */
export function datesToCompare(log: LedgerTransaction[]): string[] {
  const dates = new Set<string>();
  for (const tx of log) {
    dates.add(tx.effectiveDate);
    if (tx.type === 'STOCK_ISSUANCE_AMENDED' && tx.payload.changes.issueDate)
      dates.add(tx.payload.changes.issueDate);
  }
  const sorted = [...dates].sort();
  if (!sorted.length) return [];
  const sample =
    sorted.length <= SAMPLE
      ? sorted
      : [
          ...new Set(
            Array.from(
              { length: SAMPLE },
              (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (SAMPLE - 1))],
            ),
          ),
        ];
  return [dayBefore(sorted[0]), ...sample];
}

const dayBefore = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

/** The position of `date` as the moves make it (what `PositionReader` reads for a past date). */
export async function movedPosition(
  m: EntityManager,
  organizationId: string,
  date: string,
): Promise<Position> {
  const state = await recordsAsOf(m, organizationId, date);
  const shares: Position['shares'] = new Map();
  for (const r of await sharesAsOf(m, organizationId, date))
    addShares(shares, state, r.memberId, r.securityId, toDecimal(r.quantity));
  return { asOf: date, state, shares };
}

/**
 * The moves against the oracle, the log replayed as of each date (`replayAsOf`, the lenient
 * replay): every share count by member and class, every field of every class, plan, pool,
 * grant, warrant, convertible and vesting schedule that differs.
 */
export async function compareMoves(
  m: EntityManager,
  organizationId: string,
  log: LedgerTransaction[],
): Promise<MoveDifference[]> {
  const differences: MoveDifference[] = [];
  for (const date of datesToCompare(log)) {
    if (!(await movesServe(m, organizationId, date))) continue;
    const replayed = positionOf(replayAsOf(log, date), date);
    const moved = await movedPosition(m, organizationId, date);
    differences.push(...comparePositions(date, replayed, moved));
  }
  return differences;
}

/** Where two positions of one date differ. */
export function comparePositions(
  date: string,
  replayed: Position,
  moved: Position,
): MoveDifference[] {
  const differences: MoveDifference[] = [];
  const text = (byClass: Map<string, Decimal> | undefined, s: string) => {
    const q = byClass?.get(s);
    return q ? toDecimalString(q) : '0';
  };
  for (const member of new Set([...replayed.shares.keys(), ...moved.shares.keys()])) {
    const a = replayed.shares.get(member);
    const b = moved.shares.get(member);
    for (const security of new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])])) {
      if (text(a, security) !== text(b, security))
        differences.push({
          date,
          record: 'shares',
          id: member,
          field: security,
          replayed: text(a, security),
          moved: text(b, security),
        });
    }
  }
  for (const kind of MOVED_KINDS) {
    const a = replayed.state[kind] as unknown as Map<string, Record<string, unknown>>;
    const b = moved.state[kind] as unknown as Map<string, Record<string, unknown>>;
    for (const id of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(id);
      const y = b.get(id);
      if (!x || !y) {
        differences.push({
          date,
          record: kind,
          id,
          field: '*',
          replayed: x && 'present',
          moved: y && 'present',
        });
        continue;
      }
      for (const field of new Set([...Object.keys(x), ...Object.keys(y)])) {
        if (UNMOVED_FIELDS[kind]?.has(field)) continue;
        const left = JSON.stringify(plain(x[field]));
        const right = JSON.stringify(plain(y[field]));
        if (left !== right)
          differences.push({ date, record: kind, id, field, replayed: left, moved: right });
      }
    }
  }
  return differences;
}

/** Decimals as text and objects with sorted keys (jsonb keeps no key order). */
function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && 'toFixed' in value && 'isZero' in value)
    return toDecimalString(value as Decimal);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, plain((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
