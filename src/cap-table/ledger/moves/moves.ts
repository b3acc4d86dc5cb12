import Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import type { Changes, LedgerState } from '../ledger-state';
import { DEFINITIONS } from '../reducer';
import type { LedgerTransaction } from '../transaction-types';

/** The kinds of record, besides shareholdings, whose history the moves keep: what a position holds. */
export const MOVED_KINDS = ['securities', 'schedules', 'plans', 'pools', 'holdings'] as const;
export type MovedKind = (typeof MOVED_KINDS)[number];

/**
 * Fields the moves leave out: a class's next certificate and share numbers are the write path's
 * counters, not part of the cap table of a date (no as-of reader reads them).
 */
export const UNMOVED_FIELDS: Partial<Record<MovedKind, ReadonlySet<string>>> = {
  securities: new Set(['nextCertificateNumber', 'nextShareNumber']),
};

/**
 * Types whose change is not an amount added but a value set, scaled or computed from the record
 * (a split, a correction, new authorized or reserved shares, a note's repayment and its interest,
 * a conversion): their moves are what they changed on the record as it stood when written, which
 * a replay of an earlier date may not see (`LedgerMove.resets`).
 */
export const RESETTING_TYPES: ReadonlySet<string> = new Set([
  'TX_STOCK_CLASS_SPLIT',
  'STOCK_ISSUANCE_AMENDED',
  'STOCK_CLASS_UPDATED',
  'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
  'STOCK_PLAN_UPDATED',
  'STOCK_PLAN_POOL_UPDATED',
  'TX_STOCK_PLAN_POOL_ADJUSTMENT',
  'HOLDING_AMENDED',
  'TX_CONVERTIBLE_REPAYMENT',
  'TX_CONVERTIBLE_CONVERSION',
]);

/** A decimal field's entry in `fields`: its value is the sum of its deltas. */
export const DECIMAL_FIELD = '#';

/** The date definitions count from: all of history. */
export const ALL_OF_HISTORY = '-infinity';

/** A `ledger_move` row, as its entity's properties. */
export interface MoveRow {
  organizationId: string;
  transactionId: string;
  effectiveDate: string;
  datedBy: string | null;
  kind: string;
  recordId: string;
  memberId: string | null;
  securityId: string | null;
  creates: boolean;
  resets: boolean;
  quantity: string | null;
  deltas: Record<string, string> | null;
  fields: Record<string, unknown> | null;
}

/**
 * When a log entry's moves count, by the as-of rule (see the position's `includedAsOf`):
 * definitions always; an issuance from its date, and a correction of it with it (`datedBy`
 * names the shareholding, so a correction of the issue date re-dates them all: `redate`);
 * anything else from its effective date.
 */
export function moveDating(
  tx: LedgerTransaction,
  state: LedgerState,
): { effectiveDate: string; datedBy: string | null } {
  if (DEFINITIONS.has(tx.type)) return { effectiveDate: ALL_OF_HISTORY, datedBy: null };
  if (tx.type === 'TX_STOCK_ISSUANCE')
    return { effectiveDate: tx.effectiveDate, datedBy: tx.payload.shareholdingId };
  if (tx.type === 'STOCK_ISSUANCE_AMENDED') {
    const h = state.shareholdings.get(tx.payload.shareholdingId);
    return {
      effectiveDate: tx.payload.changes.issueDate ?? h?.issueDate ?? tx.effectiveDate,
      datedBy: tx.payload.shareholdingId,
    };
  }
  return { effectiveDate: tx.effectiveDate, datedBy: null };
}

/** The shareholding whose moves a log entry re-dates, and to when (a corrected issue date). */
export function redating(tx: LedgerTransaction): { datedBy: string; date: string } | null {
  if (tx.type !== 'STOCK_ISSUANCE_AMENDED' || !tx.payload.changes.issueDate) return null;
  return { datedBy: tx.payload.shareholdingId, date: tx.payload.changes.issueDate };
}

interface KeptShares {
  memberId: string;
  securityId: string;
  active: Decimal;
}

/** A record's fields as last moved: decimals as they are, anything else as JSON text. */
type KeptRecord = Map<string, Decimal | string | null>;

const ZERO = toDecimal(0);
const isDecimal = (v: unknown): v is Decimal => Decimal.isDecimal(v);
const activeShares = (h: { status: string; quantity: Decimal }) =>
  h.status === 'active' ? h.quantity : ZERO;

/**
 * The records of a write's state as its moves last left them, so each change's moves are what
 * it changed: made from the records a write loaded (`of`), then kept up by `moves` as each
 * transaction is applied. A record not in it is new.
 */
export class MoveBaseline {
  private readonly shares = new Map<string, KeptShares>();
  private readonly records = new Map<string, KeptRecord>();

  static of(state: LedgerState): MoveBaseline {
    const baseline = new MoveBaseline();
    for (const h of state.shareholdings.values()) baseline.keepShares(h);
    for (const kind of MOVED_KINDS) {
      for (const [id, record] of state[kind] as Map<string, object>)
        baseline.records.set(`${kind}:${id}`, keep(kind, record));
    }
    return baseline;
  }

  private keepShares(h: {
    id: string;
    memberId: string;
    securityId: string;
    status: string;
    quantity: Decimal;
  }) {
    this.shares.set(h.id, {
      memberId: h.memberId,
      securityId: h.securityId,
      active: activeShares(h),
    });
  }

  /** The moves of `tx`, just applied to `state` with `changes`; the baseline takes them. */
  moves(
    organizationId: string,
    tx: LedgerTransaction,
    state: LedgerState,
    changes: Changes,
  ): MoveRow[] {
    const { effectiveDate, datedBy } = moveDating(tx, state);
    const rows: MoveRow[] = [];
    const row = (kind: string, recordId: string, part: Partial<MoveRow>): MoveRow => ({
      organizationId,
      transactionId: tx.id,
      effectiveDate,
      datedBy,
      kind,
      recordId,
      memberId: null,
      securityId: null,
      creates: false,
      resets: RESETTING_TYPES.has(tx.type),
      quantity: null,
      deltas: null,
      fields: null,
      ...part,
    });
    for (const id of changes.shareholdings) {
      const h = state.shareholdings.get(id);
      if (!h) continue;
      const before = this.shares.get(id);
      const moved = (memberId: string, securityId: string, quantity: Decimal, creates = false) => {
        if (creates || !quantity.isZero())
          rows.push(
            row('shareholdings', id, {
              memberId,
              securityId,
              creates,
              quantity: toDecimalString(quantity),
            }),
          );
      };
      if (before && (before.memberId !== h.memberId || before.securityId !== h.securityId)) {
        moved(before.memberId, before.securityId, before.active.neg());
        moved(h.memberId, h.securityId, activeShares(h));
      } else {
        moved(h.memberId, h.securityId, activeShares(h).minus(before?.active ?? ZERO), !before);
      }
      this.keepShares(h);
    }
    for (const kind of MOVED_KINDS) {
      for (const id of changes[kind]) {
        const record = (state[kind] as Map<string, object>).get(id);
        if (!record) continue;
        const key = `${kind}:${id}`;
        const before = this.records.get(key);
        const after = keep(kind, record);
        const deltas: Record<string, string> = {};
        const fields: Record<string, unknown> = {};
        for (const [field, value] of after) {
          const old = before?.get(field);
          if (isDecimal(value)) {
            const delta = value.minus(isDecimal(old) ? old : ZERO);
            if (!before || !delta.isZero()) deltas[field] = toDecimalString(delta);
            if (!isDecimal(old)) fields[field] = DECIMAL_FIELD;
          } else if (old === undefined || isDecimal(old) || old !== value) {
            if (isDecimal(old)) deltas[field] = toDecimalString(old.neg());
            fields[field] = value === null ? null : (JSON.parse(value) as unknown);
          }
        }
        this.records.set(key, after);
        if (Object.keys(deltas).length || Object.keys(fields).length)
          rows.push(
            row(kind, id, {
              deltas: Object.keys(deltas).length ? deltas : null,
              fields: Object.keys(fields).length ? fields : null,
            }),
          );
      }
    }
    return rows;
  }
}

/** A record's moved fields: decimals kept, anything else as JSON text (null as null). */
function keep(kind: MovedKind, record: object): KeptRecord {
  const kept: KeptRecord = new Map();
  const unmoved = UNMOVED_FIELDS[kind];
  for (const [field, value] of Object.entries(record)) {
    if (value === undefined || unmoved?.has(field)) continue;
    kept.set(field, isDecimal(value) ? value : value === null ? null : JSON.stringify(value));
  }
  return kept;
}
