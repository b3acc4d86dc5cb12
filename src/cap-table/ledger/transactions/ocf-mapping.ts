import type { Json, Located, OcfItem } from '../../../../libs/ocf';
import type { HoldingRecord } from '../incentive-types';
import type { LedgerLogEntry } from '../ledger-log-entry';
import type { LedgerState } from '../ledger-state';
import type { LedgerTransaction, TransactionPayloads, TransactionType } from '../transaction-types';

/**
 * What a transaction type is in the Open Cap Format, both ways: the OCF transactions the export
 * writes of a log entry, and the OCF objects the import reads back as it. The OCF module (src/ocf)
 * drives both (reads and writes the package, keeps the ids and problems) through the contexts
 * below, and finds each type's mapping through the registry. See docs/ocf.md.
 */
export interface OcfMapping<T extends TransactionType> {
  readonly export: OcfExportMapping<T>;
  readonly import?: OcfImportMapping;
}

// ---- export

export interface OcfExportMapping<T extends TransactionType> {
  /**
   * How the export reads an entry of the type: `manifest`, kept whole in the manifest's comments
   * (OCF has no transaction for it); `row`, an entry about shareholdings, mapped from the log row
   * alone (the export keeps no shareholdings: 100,000 of them stream through); `replayed`,
   * applied to the export's state (definitions and incentive holdings) first, then mapped.
   */
  readonly from: 'manifest' | 'row' | 'replayed';
  /**
   * The payload members it reads when the log row has the shareholding the entry created (which
   * has the rest, as it stands): the log read leaves out the others (100,000 issuances).
   */
  readonly payloadWithMade?: readonly string[];
  /**
   * Its OCF transactions, in the order to write. None without it: a definition is written as it
   * stands once the log is read (StockClasses, Valuations ...), a correction with its issuance.
   */
  map?(entry: LedgerLogEntry, payload: TransactionPayloads[T], ctx: OcfExportContext): OcfItem[];
}

/** What the export driver offers the mappings while it reads the log in order. */
export interface OcfExportContext {
  /** Definitions and incentive holdings, replayed up to this entry (no shareholdings). */
  readonly state: LedgerState;
  /** The organization's currency. */
  readonly currency: string;
  /** Authorized shares of each class as created (the class object's initial shares). */
  readonly initialAuthorized: Map<string, string>;
  /** Reserved shares of each plan as created. */
  readonly initialReserved: Map<string, string>;
  /** The currency of a class (the organization's when none). */
  currencyOf(securityId: string | null | undefined): string;
  /** The OCF security id of a shareholding: its balance's, once a partial transfer left one. */
  securityIdOf(shareholdingId: string): string;
  /** A partial transfer left the shareholding's shares in the balance security `balanceId`. */
  replaceSecurity(shareholdingId: string, balanceId: string): void;
  /** The `ledgerline:amendment` comments of the corrections of a holding (of the package's date). */
  amendmentComments(holdingId: string): string[];
  /** The holding as issued, its later corrections folded in (a correction says what should have been). */
  amended(holding: HoldingRecord): HoldingRecord;
  /** Keeps the entry whole in the manifest's comments. */
  keepInManifest(entry: LedgerLogEntry): void;
}

// ---- import

/** A transaction imported (true), refused (false, a problem recorded) or without counterpart. */
export type OcfDone = boolean | 'unsupported';

/** What a security id of the package stands for once imported. */
export type OcfTarget = { kind: 'shareholding' | 'holding'; id: string };

/** A stock plan of the package as imported. */
export interface ImportedPlan {
  planId: string;
  poolId: string;
  behavior: string;
  /** The pools the export listed (`ledgerline:pool`), or null: one pool of the plan's size. */
  pools: { id: string; ocfId: string; name: string; target: string; deleted: boolean }[] | null;
}

/** A log entry the export kept in the manifest's comments (`ledgerline:transaction`). */
export interface ManifestEntry {
  type: string;
  effectiveDate: string;
  payload: Json;
}

export interface OcfImportMapping {
  /** The OCF object types imported as this type, by object type (one definition each). */
  readonly objects?: Readonly<Record<string, OcfObjectImport>>;
  /**
   * OCF object types this type reads only while no definition claims them in `objects` (a
   * repurchase read as a cancellation, until a type of its own reads it).
   */
  readonly fallbacks?: Readonly<Record<string, OcfObjectImport>>;
  /** Reads back an entry of the type the export kept in the manifest's comments. */
  fromManifest?(l: Located, entry: ManifestEntry, ctx: OcfImportContext): OcfDone;
}

/** How the import reads one OCF object type. */
export interface OcfObjectImport {
  /** The fields it keeps: any other the object has is reported as not imported. */
  readonly keeps: readonly string[];
  /** Records the ledger transactions of the object (through `ctx.record`). */
  read(l: Located, ctx: OcfImportContext): OcfDone;
}

/** What the import driver offers the mappings while it replays the package's transactions. */
export interface OcfImportContext {
  /** The state the transactions recorded so far give. */
  readonly state: LedgerState;
  /** The package's date (today when it names none). */
  readonly asOf: string;
  /** LLC units may be fractional; a corporation's shares are whole. */
  readonly fractional: boolean;
  /** The records imported, by OCF id: our ids. */
  readonly members: ReadonlyMap<string, { memberId: string }>;
  readonly classes: ReadonlyMap<string, string>;
  readonly legends: ReadonlyMap<string, string>;
  readonly plans: ReadonlyMap<string, ImportedPlan>;
  /** The export's pool ids → ours. */
  readonly pools: ReadonlyMap<string, string>;
  /** Vesting terms → our schedule (null: not imported). */
  readonly schedules: ReadonlyMap<string, string | null>;
  /** security_id → the transaction of the package that issues it. */
  readonly issuedBy: ReadonlyMap<string, Located>;
  /** security_id → its first TX_VESTING_START. */
  readonly vestingStarts: ReadonlyMap<string, Located>;
  /** security_id → what it is now. */
  readonly targets: ReadonlyMap<string, OcfTarget>;
  newId(): string;
  problem(l: Located, field: string, reason: string): void;
  warn(l: Located, field: string, reason: string): void;
  /** Fields of the object found redundant (derived from what is kept): no warning. */
  keep(o: Json, ...fields: string[]): void;
  /** The first value of a `ledgerline:` comment of the object (marked as read). */
  note<T = unknown>(o: Json, key: string): T | undefined;
  /** Every value of a `ledgerline:` comment key of the object (marked as read). */
  notes<T = unknown>(o: Json, key: string): T[];
  /** A quantity of the object as the ledger takes it, or null (a problem recorded). */
  quantity(l: Located, field: string, value: unknown): string | null;
  /** Replays a ledger transaction and plans it: false when the ledger refuses it (a problem recorded). */
  record(source: Located | null, tx: Omit<LedgerTransaction, 'id'>): boolean;
  /** What the object's security_id is now, when of `kind` (else a problem recorded). */
  target(l: Located, kind: OcfTarget['kind']): string | null;
  /** Records what a security id is (and warns when the certificate number differs from custom_id). */
  issued(l: Located, security: string, target: OcfTarget): void;
  /** The resulting issuances of a transaction. */
  resulting(l: Located): Located[];
  /** The one resulting stock issuance of an exercise or conversion (else a problem recorded). */
  oneResult(l: Located): Located | null;
  /** The balance security, if any, stays the source: its id becomes an alias of `target`. */
  balance(l: Located, target: OcfTarget, remaining: string | null): void;
  /** Raises the export's pools toward their sizes as far as the plan's reservation allows. */
  fitPools(l: Located, planId: string, pools: { id: string; target: string }[]): void;
}

// ---- the common cases

/**
 * A record OCF writes as an object, as it stands once the log is read (StockClasses, Valuations
 * ...): replayed, no transaction of its own.
 */
export const WRITTEN_AS_OBJECT = { export: { from: 'replayed' } } as const;

/** An entry OCF has no transaction or object for: kept whole in the manifest's comments. */
export const KEPT_IN_MANIFEST = { export: { from: 'manifest' } } as const;

/** The fields every OCF transaction has, which its import keeps. */
export const TX_FIELDS = ['object_type', 'id', 'date'] as const;
/** ... of a transaction of a security. */
export const SECURITY_TX_FIELDS = [...TX_FIELDS, 'security_id'] as const;
/** ... of the issuance of a security: its holder and custom id too. */
export const ISSUANCE_FIELDS = [...SECURITY_TX_FIELDS, 'stakeholder_id', 'custom_id'] as const;
