import { randomUUID } from 'node:crypto';
import { isWholeNumber, toDecimal, toDecimalString } from '../../../libs/cap-math';
import {
  applyTransaction,
  emptyState,
  LedgerRuleError,
  type ImportedPlan,
  type LedgerState,
  type LedgerTransaction,
} from '../../cap-table';
import { KEPT } from './ocf-kept-fields';
import { arr, empty, NOTE, notesOf, str, type Json, type Located } from '../../../libs/ocf';
import type { OcfPackage } from './ocf-package';
import { Findings, type OcfProblem } from './ocf-problems';

/** A stakeholder as a member: an existing one (matched by e-mail) or one the import adds. */
export interface StakeholderMember {
  ocfId: string;
  memberId: string;
  name: string;
  email: string | null;
  existing: boolean;
}

/** One ledger transaction of the import, with the OCF object it came from. */
export interface PlannedTransaction {
  source: Located | null;
  tx: LedgerTransaction;
}

export interface ImportCounts {
  stakeholders: number;
  membersCreated: number;
  membersMatched: number;
  stockClasses: number;
  stockLegendTemplates: number;
  stockPlans: number;
  vestingTerms: number;
  valuations: number;
  /** OCF transactions imported, by object type (those folded into another, e.g. a transfer's resulting issuance, not counted). */
  transactions: Record<string, number>;
  /** Entries the import appends to the ledger. */
  ledgerTransactions: number;
}

export interface ImportPlan {
  members: StakeholderMember[];
  transactions: PlannedTransaction[];
  counts: ImportCounts;
  warnings: OcfProblem[];
  /** The state a replay of `transactions` gives (what the database will hold). */
  state: LedgerState;
}

export interface MappingOptions {
  /** Current members of the organization by e-mail address (lower-cased). */
  membersByEmail: Map<string, string>;
  /** The organization's currency (for classes and convertibles that name none). */
  currency: string;
  /** LLC units may be fractional; a corporation's shares are whole. */
  fractional: boolean;
  /** The caller's today (UTC `YYYY-MM-DD`): the as-of date of a package whose manifest has none. */
  today: string;
  newId?: () => string;
}

/**
 * What every part of the mapping shares: the records made so far (by OCF id), the reducer's state
 * they were replayed into, the ledger transactions planned, and the problems and warnings found.
 */
export class ImportBook {
  readonly problems = new Findings();
  readonly warnings = new Findings();
  readonly newId: () => string;
  readonly state = emptyState();
  readonly planned: PlannedTransaction[] = [];
  /** The package's date (today when it names none). */
  readonly asOf: string;
  readonly fractional: boolean;

  readonly members = new Map<string, StakeholderMember>();
  readonly classes = new Map<string, string>();
  readonly legends = new Map<string, string>();
  readonly plans = new Map<string, ImportedPlan>();
  /** The export's pool ids → ours. */
  readonly pools = new Map<string, string>();
  readonly schedules = new Map<string, string | null>();
  readonly counts: ImportCounts = {
    stakeholders: 0,
    membersCreated: 0,
    membersMatched: 0,
    stockClasses: 0,
    stockLegendTemplates: 0,
    stockPlans: 0,
    vestingTerms: 0,
    valuations: 0,
    transactions: {},
    ledgerTransactions: 0,
  };
  /** Records the export marked deleted: created, used by the transactions, then deleted. */
  readonly deletions: {
    l: Located;
    type:
      | 'STOCK_CLASS_DELETED'
      | 'STOCK_LEGEND_TEMPLATE_DELETED'
      | 'STOCK_PLAN_DELETED'
      | 'STOCK_PLAN_POOL_DELETED'
      | 'VESTING_TERMS_DELETED';
    id: string;
  }[] = [];
  private readonly consumed = new Map<Json, Set<string>>();
  /** Fields of an object a mapping found redundant (derived from what is kept): no warning. */
  private readonly alsoKept = new Map<Json, string[]>();

  constructor(
    private readonly pkg: OcfPackage,
    options: MappingOptions,
  ) {
    this.newId = options.newId ?? randomUUID;
    this.asOf = str(pkg.manifest.as_of) ?? options.today;
    this.fractional = options.fractional;
  }

  problem(l: Located, field: string, reason: string) {
    this.problems.add(l.file, `${l.path}${field ? `/${field}` : ''}`, reason);
  }

  warn(l: Located, field: string, reason: string) {
    this.warnings.add(l.file, `${l.path}${field ? `/${field}` : ''}`, reason);
  }

  /** Warnings for the fields of `l` the import does not keep. */
  unkept(l: Located, kept: readonly string[] = KEPT[String(l.object.object_type)] ?? []) {
    for (const [key, value] of Object.entries(l.object)) {
      if (key === 'comments' || kept.includes(key) || empty(value)) continue;
      if (this.alsoKept.get(l.object)?.includes(key)) continue;
      this.warn(l, key, `${String(l.object.object_type)}.${key} has no counterpart: not imported`);
    }
  }

  keep(o: Json, ...fields: string[]) {
    this.alsoKept.set(o, [...(this.alsoKept.get(o) ?? []), ...fields]);
  }

  /** The first value of a `ledgerline:` comment of the object (marked as read). */
  note<T = unknown>(o: Json, key: string): T | undefined {
    return this.notes<T>(o, key)[0];
  }

  /** Every value of a `ledgerline:` comment key of the object (marked as read). */
  notes<T = unknown>(o: Json, key: string): T[] {
    const values = notesOf(o).get(key) ?? [];
    if (values.length) this.consumed.set(o, (this.consumed.get(o) ?? new Set()).add(key));
    return values as T[];
  }

  /** Warnings for comments nothing read: free text, and `ledgerline:` facts without a use. */
  commentWarnings() {
    const all: Located[] = [
      { file: this.pkg.manifestFile, path: '', object: this.pkg.manifest },
      ...this.pkg.stakeholders,
      ...this.pkg.stockClasses,
      ...this.pkg.legends,
      ...this.pkg.plans,
      ...this.pkg.vestingTerms,
      ...this.pkg.valuations,
      ...this.pkg.transactions,
    ];
    for (const l of all) {
      const read = this.consumed.get(l.object) ?? new Set();
      arr(l.object.comments).forEach((c, i) => {
        const m = typeof c === 'string' ? NOTE.exec(c) : null;
        if (m && read.has(m[1])) return;
        this.warn(
          l,
          `comments/${i}`,
          m ? `ledgerline:${m[1]} is not imported` : 'comments have no counterpart: not imported',
        );
      });
    }
  }

  ocfId(l: Located): string {
    return String(l.object.id);
  }

  /** Duplicate ids within one kind are a problem; returns false for a duplicate. */
  unique(seen: Set<string>, l: Located): boolean {
    const id = this.ocfId(l);
    if (seen.has(id)) {
      this.problem(l, 'id', `the id ${id} is used by another ${String(l.object.object_type)}`);
      return false;
    }
    seen.add(id);
    return true;
  }

  quantity(l: Located, field: string, value: unknown): string | null {
    const s = str(value);
    if (s === undefined) return null;
    const d = toDecimal(s);
    if (!d.gt(0)) {
      this.problem(l, field, 'must be more than 0');
      return null;
    }
    if (!this.fractional && !isWholeNumber(d)) {
      this.problem(l, field, 'must be a whole number of shares (fractional units are for LLCs)');
      return null;
    }
    return toDecimalString(d);
  }

  record(source: Located | null, tx: Omit<LedgerTransaction, 'id'>): boolean {
    const full = { id: this.newId(), ...tx } as LedgerTransaction;
    try {
      applyTransaction(this.state, full);
    } catch (err) {
      if (!(err instanceof LedgerRuleError)) throw err;
      const at = source ?? { file: this.pkg.manifestFile, path: '', object: {} };
      const id = source ? ` ${String(source.object.id)}` : '';
      this.problem(
        at,
        '',
        `${source ? String(source.object.object_type) : tx.type}${id} is refused by the ledger (${err.rule}): ${err.message}`,
      );
      return false;
    }
    this.planned.push({ source, tx: full });
    return true;
  }
}
