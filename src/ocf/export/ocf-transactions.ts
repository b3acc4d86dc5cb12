import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import {
  applyTransaction,
  emptyState,
  includedAsOf,
  LedgerRuleError,
  type HoldingRecord,
  type HoldingTerms,
  type LedgerLogAmendment,
  type LedgerLogEntry,
  type LedgerState,
  type LedgerTransaction,
  type TransactionPayloads,
  type TransactionType,
} from '../../cap-table';
import { holdingIssuance } from './ocf-holdings';
import {
  conversionTriggerId,
  derivedId,
  exerciseTriggerId,
  compact,
  ledgerComment,
  monetary,
  numeric,
  OcfItem,
  withComments,
} from '../../../libs/ocf';

/**
 * The equity transaction log as OCF transactions, one log entry at a time, in log order.
 *
 * The mapper keeps a small state: the definitions (classes, legends, plans, pools, vesting
 * terms, valuations) and the incentive holdings (grants, warrants, notes, SAFEs), replayed with
 * the ledger's own reducer, and the OCF security id of each partially transferred shareholding.
 * Shareholdings themselves are not kept (a cap table of 100,000 of them streams through): what a
 * transfer needs of its source comes with the log row (`LogRow.source`, read by the same query).
 */

/** A log entry with the shareholdings it names, as the cap table's LedgerLogReader reads it. */
export type LogRow = LedgerLogEntry;
/** Corrections recorded later of a holding, folded into its issuance (read before the log). */
export type Amendment = LedgerLogAmendment;

/** Entries about shareholdings: mapped from the row alone, never through the reducer. */
const SHAREHOLDING_ENTRIES = new Set<TransactionType>([
  'TX_STOCK_ISSUANCE',
  'TX_STOCK_TRANSFER',
  'TX_STOCK_CANCELLATION',
  'STOCK_ISSUANCE_AMENDED',
]);

/** Entries with no OCF transaction: kept whole in the manifest's comments. */
const MANIFEST_ONLY = new Set<TransactionType>([
  'CAPITAL_CHANGE_RECORDED',
  'CAPITAL_CHANGE_AMENDED',
  'EXERCISE_REQUESTED',
  'EXERCISE_REQUEST_REJECTED',
]);

type P<T extends TransactionType> = TransactionPayloads[T];

export class OcfTransactionMapper {
  /** Definitions and incentive holdings, replayed. */
  readonly state: LedgerState = emptyState();
  /** Authorized shares of each class as created; reserved shares of each plan as created. */
  readonly initialAuthorized = new Map<string, string>();
  readonly initialReserved = new Map<string, string>();
  /** Log entries OCF has no object for, for the manifest's comments. */
  readonly manifestComments: string[] = [];
  /** Shareholding id → its OCF security id, once a partial transfer replaced it by a balance. */
  private readonly aliases = new Map<string, string>();
  private readonly amendments = new Map<string, Amendment[]>();

  constructor(
    private readonly asOf: string | undefined,
    private readonly currency: string,
    amendments: Amendment[] = [],
  ) {
    for (const a of amendments) {
      const list = this.amendments.get(a.holdingId) ?? [];
      list.push(a);
      this.amendments.set(a.holdingId, list);
    }
  }

  /**
   * Whether the entry belongs to the package of `asOf`, by the cap table's as-of rule (an
   * issuance by its corrected issue date, which the row carries).
   */
  private included(row: LogRow): boolean {
    return !this.asOf || includedAsOf(row, this.asOf, { issueDate: row.made?.issueDate });
  }

  /** The OCF transactions of one log entry (none for most definitions), in the order to write. */
  map(row: LogRow): OcfItem[] {
    if (!this.included(row)) return [];
    if (MANIFEST_ONLY.has(row.type)) {
      this.manifestComments.push(this.entryComment(row));
      return [];
    }
    if (SHAREHOLDING_ENTRIES.has(row.type)) return this.shareholdingEntry(row);
    // Facts read before the reducer changes them.
    const before = this.incentiveBefore(row);
    this.apply(row);
    return this.incentiveEntry(row, before);
  }

  private entryComment(row: LogRow) {
    return ledgerComment('transaction', {
      id: row.id,
      type: row.type,
      effectiveDate: row.effectiveDate,
      payload: row.payload,
    });
  }

  private apply(row: LogRow) {
    const tx = {
      id: row.id,
      type: row.type,
      effectiveDate: row.effectiveDate,
      payload: row.payload,
    } as LedgerTransaction;
    try {
      applyTransaction(this.state, tx, false);
    } catch (err) {
      // Read leniently, as an as-of replay: an entry about a record not there yet is passed over.
      if (!(err instanceof LedgerRuleError)) throw err;
    }
    // Shareholdings (made by exercises and conversions) are not kept; nor what changed.
    this.state.shareholdings.clear();
    this.state.blocks.clear();
    this.state.takeChanges();
  }

  private currencyOf(securityId: string | null | undefined) {
    return (securityId && this.state.securities.get(securityId)?.currency) || this.currency;
  }

  private securityIdOf(shareholdingId: string) {
    return this.aliases.get(shareholdingId) ?? shareholdingId;
  }

  /** A TX_STOCK_ISSUANCE. */
  private stockIssuance(
    fields: {
      id: string;
      date: string;
      securityId: string;
      certificateNumber: string;
      memberId: string;
      classId: string;
      pricePerShare: string | null;
      quantity: string;
      legendIds: string[];
      consideration: string | null;
    },
    comments: string[],
  ): OcfItem {
    if (fields.pricePerShare === null) comments.push(ledgerComment('pricePerShare', null));
    // Built as written (no copies): a cap table of 100,000 issuances passes through here.
    const item: OcfItem = {
      object_type: 'TX_STOCK_ISSUANCE',
      id: fields.id,
      date: fields.date,
      security_id: fields.securityId,
      custom_id: fields.certificateNumber,
      stakeholder_id: fields.memberId,
    };
    if (fields.consideration !== null) item.consideration_text = fields.consideration;
    item.security_law_exemptions = [];
    item.stock_class_id = fields.classId;
    item.share_price = monetary(fields.pricePerShare ?? '0', this.currencyOf(fields.classId));
    item.quantity = numeric(fields.quantity, comments, 'quantity');
    item.stock_legend_ids = fields.legendIds;
    if (comments.length) item.comments = comments;
    return item;
  }

  private amendmentComments(holdingId: string): string[] {
    return (
      (this.amendments.get(holdingId) ?? [])
        // Written with their issuance, which belongs to the package.
        .filter((a) => !this.asOf || includedAsOf(a, this.asOf, { amendsIncluded: true }))
        .map((a) =>
          ledgerComment('amendment', {
            id: a.id,
            effectiveDate: a.effectiveDate,
            changes: a.changes,
          }),
        )
    );
  }

  private shareholdingEntry(row: LogRow): OcfItem[] {
    switch (row.type) {
      case 'TX_STOCK_ISSUANCE': {
        const p = row.payload as unknown as P<'TX_STOCK_ISSUANCE'>;
        const m = row.made;
        const comments = this.amendmentComments(p.shareholdingId);
        if (m && toDecimal(m.issuedQuantity).cmp(toDecimal(p.quantity)) !== 0) {
          comments.push(ledgerComment('recordedQuantity', p.quantity));
        }
        return [
          this.stockIssuance(
            {
              id: row.id,
              date: m?.issueDate ?? p.issueDate,
              securityId: p.shareholdingId,
              certificateNumber: m?.certificateNumber ?? p.shareholdingId,
              memberId: p.memberId,
              classId: p.securityId,
              pricePerShare: m ? m.pricePerShare : p.pricePerShare,
              quantity: m?.issuedQuantity ?? p.quantity,
              legendIds: m?.legendIds ?? p.legendIds,
              consideration: m ? m.consideration : p.consideration,
            },
            comments,
          ),
        ];
      }
      case 'TX_STOCK_TRANSFER': {
        const p = row.payload as unknown as P<'TX_STOCK_TRANSFER'>;
        const src = row.source;
        const consumed = this.securityIdOf(p.sourceId);
        const partial = src !== null && toDecimal(src.remainder).gt(0);
        const balanceId = partial ? derivedId(row.id, 'balance') : undefined;
        const comments: string[] = [];
        if (p.pricePerShare !== null)
          comments.push(ledgerComment('pricePerShare', p.pricePerShare));
        const currency = this.currencyOf(src?.securityId);
        const items: OcfItem[] = [
          withComments(
            compact({
              object_type: 'TX_STOCK_TRANSFER',
              id: row.id,
              date: p.date,
              security_id: consumed,
              consideration_text:
                p.pricePerShare !== null ? `${p.pricePerShare} ${currency} per share` : undefined,
              balance_security_id: balanceId,
              resulting_security_ids: [p.destinationId],
              quantity: numeric(p.quantity),
            }),
            comments,
          ) as OcfItem,
        ];
        if (!src) return items;
        items.push(
          this.stockIssuance(
            {
              id: derivedId(row.id, 'resulting-issuance'),
              date: p.date,
              securityId: p.destinationId,
              certificateNumber: row.made?.certificateNumber ?? p.destinationId,
              memberId: p.toMemberId,
              classId: src.securityId,
              pricePerShare: p.pricePerShare ?? src.pricePerShare,
              quantity: p.quantity,
              legendIds: row.made?.legendIds ?? src.legendIds,
              consideration: null,
            },
            [ledgerComment('issuedBy', { transaction: row.id, role: 'resulting' })],
          ),
        );
        if (balanceId) {
          items.push(
            this.stockIssuance(
              {
                id: derivedId(row.id, 'balance-issuance'),
                date: p.date,
                securityId: balanceId,
                certificateNumber: src.certificateNumber,
                memberId: src.memberId,
                classId: src.securityId,
                pricePerShare: src.pricePerShare,
                quantity: src.remainder,
                legendIds: src.legendIds,
                consideration: src.consideration,
              },
              [
                ledgerComment('issuedBy', { transaction: row.id, role: 'balance' }),
                ledgerComment('shareholdingId', p.sourceId),
              ],
            ),
          );
          this.aliases.set(p.sourceId, balanceId);
        }
        return items;
      }
      case 'TX_STOCK_CANCELLATION': {
        const p = row.payload as unknown as P<'TX_STOCK_CANCELLATION'>;
        return [
          {
            object_type: 'TX_STOCK_CANCELLATION',
            id: row.id,
            date: row.effectiveDate,
            security_id: this.securityIdOf(p.shareholdingId),
            reason_text: p.reason || 'Voided',
            quantity: numeric(p.quantity),
          },
        ];
      }
      default:
        // STOCK_ISSUANCE_AMENDED: folded into the issuance (see amendmentComments).
        return [];
    }
  }

  /** What an incentive entry needs of the state before the reducer applies it. */
  private incentiveBefore(row: LogRow) {
    const id = (row.payload as { holdingId?: string }).holdingId;
    const h = id ? this.state.holdings.get(id) : undefined;
    return h
      ? {
          principalOutstanding: h.principalOutstanding,
          amount: h.terms.amount ?? h.terms.principal,
          currency: h.terms.currency,
        }
      : undefined;
  }

  private incentiveEntry(
    row: LogRow,
    before: ReturnType<OcfTransactionMapper['incentiveBefore']>,
  ): OcfItem[] {
    const date = row.effectiveDate;
    switch (row.type) {
      case 'STOCK_CLASS_CREATED': {
        const { security } = row.payload as unknown as P<'STOCK_CLASS_CREATED'>;
        this.initialAuthorized.set(security.id, security.authorizedShares);
        return [];
      }
      case 'STOCK_PLAN_CREATED': {
        const { plan } = row.payload as unknown as P<'STOCK_PLAN_CREATED'>;
        this.initialReserved.set(plan.id, plan.sharesReserved);
        return [];
      }
      case 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT': {
        const p = row.payload as unknown as P<'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT'>;
        const comments = [ledgerComment('previousSharesAuthorized', p.previousSharesAuthorized)];
        if (p.reason) comments.push(ledgerComment('reason', p.reason));
        return [
          withComments(
            {
              object_type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
              id: row.id,
              date,
              stock_class_id: p.securityId,
              new_shares_authorized: numeric(p.newSharesAuthorized),
            },
            comments,
          ),
        ];
      }
      case 'TX_STOCK_CLASS_SPLIT': {
        const p = row.payload as unknown as P<'TX_STOCK_CLASS_SPLIT'>;
        const comments = [ledgerComment('fractional', p.fractional)];
        const s = this.state.securities.get(p.securityId);
        return [
          withComments(
            {
              object_type: 'TX_STOCK_CLASS_SPLIT',
              id: row.id,
              date,
              stock_class_id: p.securityId,
              split_ratio: { numerator: numeric(p.numerator), denominator: numeric(p.denominator) },
            },
            comments,
          ),
          // OCF leaves the authorized shares to their own transaction; the split changed them.
          ...(s
            ? [
                withComments(
                  {
                    object_type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
                    id: derivedId(row.id, 'authorized-shares'),
                    date,
                    stock_class_id: p.securityId,
                    new_shares_authorized: numeric(toDecimalString(s.authorized)),
                  },
                  [ledgerComment('issuedBy', { transaction: row.id, role: 'split' })],
                ),
              ]
            : []),
        ];
      }
      case 'TX_STOCK_PLAN_POOL_ADJUSTMENT': {
        const p = row.payload as unknown as P<'TX_STOCK_PLAN_POOL_ADJUSTMENT'>;
        return [
          withComments(
            {
              object_type: 'TX_STOCK_PLAN_POOL_ADJUSTMENT',
              id: row.id,
              date,
              stock_plan_id: p.planId,
              shares_reserved: numeric(p.sharesReserved),
            },
            [ledgerComment('previousSharesReserved', p.previousSharesReserved)],
          ),
        ];
      }
      case 'TX_EQUITY_COMPENSATION_ISSUANCE':
      case 'TX_WARRANT_ISSUANCE':
      case 'TX_CONVERTIBLE_ISSUANCE':
        return this.holdingIssuance(row);
      case 'TX_EQUITY_COMPENSATION_CANCELLATION': {
        const p = row.payload as unknown as P<'TX_EQUITY_COMPENSATION_CANCELLATION'>;
        return [
          withComments(
            {
              object_type: 'TX_EQUITY_COMPENSATION_CANCELLATION',
              id: row.id,
              date,
              security_id: p.holdingId,
              reason_text: p.reason || 'Cancelled',
              quantity: numeric(p.quantity),
            },
            [ledgerComment('returnedToPool', p.returnedToPool)],
          ),
        ];
      }
      case 'TX_WARRANT_CANCELLATION': {
        const p = row.payload as unknown as P<'TX_WARRANT_CANCELLATION'>;
        return [
          {
            object_type: 'TX_WARRANT_CANCELLATION',
            id: row.id,
            date,
            security_id: p.holdingId,
            reason_text: p.reason || 'Cancelled',
            quantity: numeric(p.quantity),
          },
        ];
      }
      case 'TX_CONVERTIBLE_CANCELLATION': {
        const p = row.payload as unknown as P<'TX_CONVERTIBLE_CANCELLATION'>;
        const amount = before?.principalOutstanding ?? before?.amount ?? '0';
        return [
          {
            object_type: 'TX_CONVERTIBLE_CANCELLATION',
            id: row.id,
            date,
            security_id: p.holdingId,
            reason_text: p.reason || 'Cancelled',
            amount: monetary(String(amount), before?.currency ?? this.currency),
          },
        ];
      }
      case 'TX_EQUITY_COMPENSATION_EXERCISE':
      case 'TX_WARRANT_EXERCISE':
        return this.exercise(row);
      case 'TX_CONVERTIBLE_REPAYMENT': {
        const p = row.payload as unknown as P<'TX_CONVERTIBLE_REPAYMENT'>;
        const h = this.state.holdings.get(p.holdingId);
        if (h?.status !== 'repaid') {
          // A partial repayment: the note goes on, and OCF has no transaction for it.
          this.manifestComments.push(this.entryComment(row));
          return [];
        }
        return [
          withComments(
            {
              object_type: 'TX_CONVERTIBLE_CANCELLATION',
              id: row.id,
              date: p.date,
              security_id: p.holdingId,
              reason_text: 'Repaid in full',
              amount: monetary(p.amount, h.terms.currency ?? this.currency),
            },
            [ledgerComment('repayment', { amount: p.amount, date: p.date })],
          ),
        ];
      }
      case 'TX_CONVERTIBLE_CONVERSION':
        return this.conversion(row);
      case 'HOLDING_AMENDED':
        // Folded into the issuance (see amendmentComments); applied to the state above.
        return [];
      case 'VALUATION_RECORDED':
      case 'VALUATION_AMENDED':
      case 'STOCK_CLASS_UPDATED':
      case 'STOCK_CLASS_DELETED':
      case 'STOCK_LEGEND_TEMPLATE_CREATED':
      case 'STOCK_LEGEND_TEMPLATE_UPDATED':
      case 'STOCK_LEGEND_TEMPLATE_DELETED':
      case 'VESTING_TERMS_CREATED':
      case 'VESTING_TERMS_DELETED':
      case 'STOCK_PLAN_UPDATED':
      case 'STOCK_PLAN_DELETED':
      case 'STOCK_PLAN_POOL_CREATED':
      case 'STOCK_PLAN_POOL_UPDATED':
      case 'STOCK_PLAN_POOL_DELETED':
        // Objects, written as they stand once the log is read (StockClasses, Valuations ...).
        return [];
      default:
        this.manifestComments.push(this.entryComment(row));
        return [];
    }
  }

  /** The holding as issued, with its later corrections folded in (a correction says what should have been). */
  private amended(holding: HoldingRecord): HoldingRecord {
    let h = holding;
    for (const a of this.amendments.get(holding.id) ?? []) {
      if (a.type !== 'HOLDING_AMENDED' || (this.asOf && !includedAsOf(a, this.asOf))) continue;
      const c = a.changes as {
        terms?: HoldingTerms;
        vestingScheduleId?: string | null;
        memberId?: string;
      };
      h = {
        ...h,
        terms: { ...h.terms, ...(c.terms ?? {}) },
        vestingScheduleId:
          c.vestingScheduleId !== undefined ? c.vestingScheduleId : h.vestingScheduleId,
        memberId: c.memberId ?? h.memberId,
      };
    }
    return h;
  }

  private holdingIssuance(row: LogRow): OcfItem[] {
    const { holding: recorded } = row.payload as unknown as P<'TX_EQUITY_COMPENSATION_ISSUANCE'>;
    const h = this.amended(recorded);
    const comments = [ledgerComment('holdingType', h.type), ...this.amendmentComments(h.id)];
    return holdingIssuance(row, h, comments, {
      currency: this.currency,
      currencyOf: (securityId) => this.currencyOf(securityId),
    });
  }

  private exercise(row: LogRow): OcfItem[] {
    const p = row.payload as unknown as P<'TX_EQUITY_COMPENSATION_EXERCISE'>;
    const h = this.state.holdings.get(p.holdingId);
    const comments: string[] = [];
    if (p.requestId) comments.push(ledgerComment('requestId', p.requestId));
    if (p.paymentMethod) comments.push(ledgerComment('paymentMethod', p.paymentMethod));
    const exercise =
      row.type === 'TX_WARRANT_EXERCISE'
        ? {
            object_type: 'TX_WARRANT_EXERCISE',
            id: row.id,
            date: p.date,
            security_id: p.holdingId,
            trigger_id: exerciseTriggerId(p.holdingId),
            resulting_security_ids: [p.shareholdingId],
          }
        : {
            object_type: 'TX_EQUITY_COMPENSATION_EXERCISE',
            id: row.id,
            date: p.date,
            security_id: p.holdingId,
            quantity: numeric(p.quantity),
            resulting_security_ids: [p.shareholdingId],
          };
    if (row.type === 'TX_WARRANT_EXERCISE') comments.push(ledgerComment('quantity', p.quantity));
    return [
      withComments(exercise, comments),
      this.stockIssuance(
        {
          id: derivedId(row.id, 'resulting-issuance'),
          date: p.date,
          securityId: p.shareholdingId,
          certificateNumber: row.made?.certificateNumber ?? p.shareholdingId,
          memberId: h?.memberId ?? row.made?.memberId ?? '',
          classId: h?.securityId ?? row.made?.securityId ?? '',
          pricePerShare: h?.terms.exercisePrice ?? row.made?.pricePerShare ?? null,
          quantity: p.quantity,
          legendIds: p.legendIds,
          consideration: row.made?.consideration ?? 'exercise',
        },
        [ledgerComment('issuedBy', { transaction: row.id, role: 'resulting' })],
      ),
    ];
  }

  private conversion(row: LogRow): OcfItem[] {
    const p = row.payload as unknown as P<'TX_CONVERTIBLE_CONVERSION'>;
    const c = p.conversion;
    const h = this.state.holdings.get(p.holdingId);
    return [
      withComments(
        {
          object_type: 'TX_CONVERTIBLE_CONVERSION',
          id: row.id,
          date: c.date,
          security_id: p.holdingId,
          resulting_security_ids: [c.shareholdingId],
          reason_text: `Converted at ${c.conversionPrice} per share (${c.method}) in a financing at ${c.roundPricePerShare} per share`,
          quantity_converted: numeric(c.conversionAmount),
          trigger_id: conversionTriggerId(p.holdingId),
        },
        [ledgerComment('conversion', c)],
      ),
      this.stockIssuance(
        {
          id: derivedId(row.id, 'resulting-issuance'),
          date: c.date,
          securityId: c.shareholdingId,
          certificateNumber: row.made?.certificateNumber ?? c.shareholdingId,
          memberId: h?.memberId ?? row.made?.memberId ?? '',
          classId: c.securityId,
          pricePerShare: c.conversionPrice,
          quantity: c.shares,
          legendIds: p.legendIds,
          consideration: row.made?.consideration ?? null,
        },
        [ledgerComment('issuedBy', { transaction: row.id, role: 'resulting' })],
      ),
    ];
  }
}
