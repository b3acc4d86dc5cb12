import { arr, obj, str, type Json, type Located } from '../../../libs/ocf';
import {
  OCF_IMPORTERS,
  OCF_MANIFEST_IMPORTERS,
  type ManifestEntry,
  type OcfDone,
  type OcfImportContext,
} from '../../cap-table';
import { DefinitionsMapping } from './ocf-definitions';
import { ImportBook, type ImportPlan, type MappingOptions } from './ocf-import-book';
import { importContext } from './ocf-import-context';
import { ISSUANCES, MANIFEST_ENTRY } from './ocf-kept-fields';
import type { OcfPackage } from './ocf-package';
import { PlanPools } from './ocf-plan-pools';
import type { OcfProblem } from './ocf-problems';
import { Securities } from './ocf-securities';

export type {
  ImportCounts,
  ImportPlan,
  MappingOptions,
  PlannedTransaction,
  StakeholderMember,
} from './ocf-import-book';

/**
 * Turns a checked OCF package into the ledger transactions that rebuild it, and replays them
 * on an empty cap table with the ledger's own reducer, so that every rule the database write
 * will enforce is found here first. Returns every problem (a reference that resolves to nothing,
 * a transaction the ledger refuses, named by its OCF id), or the plan and its warnings (what OCF
 * says that the service cannot keep). Ids are new UUIDs (an OCF id is any string, and the same
 * package may be imported into several organizations).
 */
export function planImport(
  pkg: OcfPackage,
  options: MappingOptions,
): { plan: ImportPlan } | { problems: OcfProblem[] } {
  return new ImportPlanner(pkg, options).run();
}

/**
 * The whole mapping: the definitions, the references, then the transactions in date order, each
 * as the transaction definition that imports its object type says (src/cap-table/ledger/transactions).
 */
class ImportPlanner {
  private readonly book: ImportBook;
  private readonly securities: Securities;
  private readonly definitions: DefinitionsMapping;
  private readonly pools: PlanPools;
  private readonly context: OcfImportContext;
  /** Security ids whose issuance was not imported (its transactions are passed over). */
  private readonly skipped = new Set<string>();

  constructor(
    private readonly pkg: OcfPackage,
    options: MappingOptions,
  ) {
    this.book = new ImportBook(pkg, options);
    this.securities = new Securities(this.book, pkg);
    this.definitions = new DefinitionsMapping(this.book, pkg, options);
    this.pools = new PlanPools(this.book, pkg);
    this.context = importContext(this.book, this.securities, this.pools);
  }

  run(): { plan: ImportPlan } | { problems: OcfProblem[] } {
    const book = this.book;
    const issuer = obj(this.pkg.manifest.issuer);
    if (issuer) {
      book.warnings.add(
        this.pkg.manifestFile,
        '/issuer',
        'the issuer is not imported: the organization keeps its own name and details',
      );
    }
    for (const l of [...this.pkg.financings, ...this.pkg.documents]) {
      book.warnings.add(l.file, l.path, `${String(l.object.object_type)} objects are not imported`);
    }
    this.securities.index();
    this.definitions.stakeholders();
    this.definitions.stockClasses();
    this.definitions.stockLegends();
    this.definitions.stockPlans();
    this.definitions.vestingTerms();
    this.definitions.valuations();
    this.securities.checkReferences();
    if (book.problems.size) return { problems: book.problems.list };
    this.timeline();
    this.pools.afterTimeline();
    if (book.problems.size) return { problems: book.problems.list };
    book.commentWarnings();
    book.counts.ledgerTransactions = book.planned.length;
    return {
      plan: {
        members: [...book.members.values()],
        transactions: book.planned,
        counts: book.counts,
        warnings: book.warnings.list,
        state: book.state,
      },
    };
  }

  /** The transactions in date order (file order within a date), each mapped and replayed. */
  private timeline() {
    const book = this.book;
    const ordered = [...this.pkg.transactions, ...this.manifestEntries()]
      .map((l, i) => ({ l, i }))
      .sort((a, b) => String(a.l.object.date).localeCompare(String(b.l.object.date)) || a.i - b.i);
    for (const { l } of ordered) {
      const o = l.object;
      const type = String(o.object_type);
      const security = str(o.security_id);
      // A security another transaction results in is issued by that transaction.
      if (ISSUANCES.has(type) && security && this.securities.results.has(security)) continue;
      if (security && !ISSUANCES.has(type) && this.skipped.has(security)) {
        book.warn(
          l,
          '',
          `${type} ${String(o.id)}: its security ${security} was not imported; not imported`,
        );
        this.skipResults(o);
        continue;
      }
      const done = this.transaction(l, type);
      if (done === 'unsupported') {
        book.warn(
          l,
          '',
          `${type} has no counterpart in the ledger: ${String(o.id)} is not imported`,
        );
        if (security && ISSUANCES.has(type)) this.skipped.add(security);
        this.skipResults(o);
        continue;
      }
      if (done) {
        const counted = type === MANIFEST_ENTRY ? String((o.entry as { type: string }).type) : type;
        if (type !== MANIFEST_ENTRY) book.unkept(l, OCF_IMPORTERS.get(type)!.keeps);
        book.counts.transactions[counted] = (book.counts.transactions[counted] ?? 0) + 1;
      }
    }
  }

  /**
   * Log entries the export kept in the manifest's comments (`ledgerline:transaction`: those OCF
   * has no transaction for), as timeline items dated by their effective date.
   */
  private manifestEntries(): Located[] {
    const manifest = this.pkg.manifest;
    const entries = this.book.notes<{
      id: string;
      type: string;
      effectiveDate: string;
      payload: Json;
    }>(manifest, 'transaction');
    return entries.map((entry, i) => ({
      file: this.pkg.manifestFile,
      path: `/comments/${i}`,
      object: {
        object_type: MANIFEST_ENTRY,
        id: String(entry.id),
        date: String(entry.effectiveDate),
        entry,
      },
    }));
  }

  /** An entry is replayed when its definition reads it back (a partial repayment); others are warned of. */
  private manifestEntry(l: Located): OcfDone {
    const entry = l.object.entry as ManifestEntry;
    const fromManifest = OCF_MANIFEST_IMPORTERS.get(entry.type);
    if (!fromManifest) {
      this.book.warn(
        l,
        '',
        `ledgerline:transaction ${entry.type} ${String(l.object.id)} is not imported`,
      );
      return false;
    }
    return fromManifest(l, entry, this.context);
  }

  /** The securities a transaction not imported results in are not imported either. */
  private skipResults(o: Json) {
    for (const r of arr(o.resulting_security_ids)) if (typeof r === 'string') this.skipped.add(r);
    const balance = str(o.balance_security_id);
    if (balance) this.skipped.add(balance);
  }

  /** Maps and replays one transaction: true when imported, false on a problem. */
  private transaction(l: Located, type: string): OcfDone {
    if (type === MANIFEST_ENTRY) return this.manifestEntry(l);
    return OCF_IMPORTERS.get(type)?.read(l, this.context) ?? 'unsupported';
  }
}
