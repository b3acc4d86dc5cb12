import { ledgerComment, type OcfItem } from '../../../libs/ocf';
import {
  AsOfReplay,
  includedAsOf,
  ocfMappingOf,
  type HoldingRecord,
  type HoldingTerms,
  type LedgerLogAmendment,
  type LedgerLogEntry,
  type LedgerState,
  type LedgerTransaction,
  type OcfExportContext,
} from '../../cap-table';

/**
 * The equity transaction log as OCF transactions, one log entry at a time, in log order: each
 * entry as its transaction definition's OCF export says (src/cap-table/ledger/transactions).
 *
 * The mapper keeps a small state: the definitions (classes, legends, plans, pools, vesting
 * terms, valuations) and the incentive holdings (grants, warrants, notes, SAFEs), replayed as of
 * the package's date by the cap table's one lenient replay (`AsOfReplay`, without shareholdings),
 * and the OCF security id of each partially transferred shareholding.
 * Shareholdings themselves are not kept (a cap table of 100,000 of them streams through): what a
 * transfer needs of its source comes with the log row (`LogRow.source`, read by the same query).
 */

/** A log entry with the shareholdings it names, as the cap table's LedgerLogReader reads it. */
export type LogRow = LedgerLogEntry;
/** Corrections recorded later of a holding, folded into its issuance (read before the log). */
export type Amendment = LedgerLogAmendment;

export class OcfTransactionMapper implements OcfExportContext {
  /** Definitions and incentive holdings, replayed as of the package's date. */
  private readonly replay: AsOfReplay;
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
    readonly currency: string,
    amendments: Amendment[] = [],
  ) {
    this.replay = new AsOfReplay(asOf, { shareholdings: false });
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
    return this.replay.includes(row, { issueDate: row.made?.issueDate });
  }

  get state(): LedgerState {
    return this.replay.state;
  }

  /** The OCF transactions of one log entry (none for most definitions), in the order to write. */
  map(row: LogRow): OcfItem[] {
    if (!this.included(row)) return [];
    const ocf = ocfMappingOf(row.type)?.export;
    if (!ocf || ocf.from === 'manifest') {
      this.keepInManifest(row);
      return [];
    }
    if (ocf.from === 'replayed') this.apply(row);
    return ocf.map?.(row, row.payload as never, this) ?? [];
  }

  keepInManifest(row: LogRow) {
    this.manifestComments.push(
      ledgerComment('transaction', {
        id: row.id,
        type: row.type,
        effectiveDate: row.effectiveDate,
        payload: row.payload,
      }),
    );
  }

  private apply(row: LogRow) {
    // Shareholdings (made by exercises and conversions) are not kept; nor what changed.
    this.replay.apply({
      id: row.id,
      type: row.type,
      effectiveDate: row.effectiveDate,
      payload: row.payload,
    } as LedgerTransaction);
  }

  currencyOf(securityId: string | null | undefined) {
    return (securityId && this.state.securities.get(securityId)?.currency) || this.currency;
  }

  securityIdOf(shareholdingId: string) {
    return this.aliases.get(shareholdingId) ?? shareholdingId;
  }

  replaceSecurity(shareholdingId: string, balanceId: string) {
    this.aliases.set(shareholdingId, balanceId);
  }

  amendmentComments(holdingId: string): string[] {
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

  amended(holding: HoldingRecord): HoldingRecord {
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
}
