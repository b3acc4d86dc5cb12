import { arr, canonical, obj, str, type Json, type Located } from '../../../libs/ocf';
import { ISSUANCES, MANIFEST_ENTRY } from './ocf-kept-fields';
import { HoldingTransactions } from './ocf-holding-transactions';
import type { Done, ImportPlan, MappingOptions } from './ocf-mapper-base';
import type { OcfPackage } from './ocf-package';
import type { OcfProblem } from './ocf-problems';

export type {
  ImportCounts,
  ImportPlan,
  MappingOptions,
  PlannedTransaction,
  StakeholderMember,
} from './ocf-mapper-base';

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
  return new Mapper(pkg, options).run();
}

/** The whole mapping: the definitions, the references, then the transactions in date order. */
class Mapper extends HoldingTransactions {
  run(): { plan: ImportPlan } | { problems: OcfProblem[] } {
    const issuer = obj(this.pkg.manifest.issuer);
    if (issuer) {
      this.warnings.add(
        this.pkg.manifestFile,
        '/issuer',
        'the issuer is not imported: the organization keeps its own name and details',
      );
    }
    for (const l of [...this.pkg.financings, ...this.pkg.documents]) {
      this.warnings.add(l.file, l.path, `${String(l.object.object_type)} objects are not imported`);
    }
    this.index();
    this.stakeholders();
    this.stockClasses();
    this.stockLegends();
    this.stockPlans();
    this.vestingTerms();
    this.valuations();
    this.checkReferences();
    if (this.problems.size) return { problems: this.problems.list };
    this.timeline();
    this.afterTimeline();
    if (this.problems.size) return { problems: this.problems.list };
    this.commentWarnings();
    this.counts.ledgerTransactions = this.planned.length;
    return {
      plan: {
        members: [...this.members.values()],
        transactions: this.planned,
        counts: this.counts,
        warnings: this.warnings.list,
        state: this.state,
      },
    };
  }

  // ---- the transactions

  /** The transactions in date order (file order within a date), each mapped and replayed. */
  private timeline() {
    const ordered = [...this.pkg.transactions, ...this.manifestEntries()]
      .map((l, i) => ({ l, i }))
      .sort((a, b) => String(a.l.object.date).localeCompare(String(b.l.object.date)) || a.i - b.i);
    for (const { l } of ordered) {
      const o = l.object;
      const type = String(o.object_type);
      const security = str(o.security_id);
      // A security another transaction results in is issued by that transaction.
      if (ISSUANCES.has(type) && security && this.results.has(security)) continue;
      if (security && !ISSUANCES.has(type) && this.skipped.has(security)) {
        this.warn(
          l,
          '',
          `${type} ${String(o.id)}: its security ${security} was not imported; not imported`,
        );
        this.skipResults(o);
        continue;
      }
      const done = this.transaction(l, type);
      if (done === 'unsupported') {
        this.warn(
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
        if (type !== MANIFEST_ENTRY) this.unkept(l);
        this.counts.transactions[counted] = (this.counts.transactions[counted] ?? 0) + 1;
      }
    }
  }

  /**
   * Log entries the export kept in the manifest's comments (`ledgerline:transaction`: those OCF
   * has no transaction for), as timeline items dated by their effective date.
   */
  private manifestEntries(): Located[] {
    const manifest = this.pkg.manifest;
    const entries = this.notes<{ id: string; type: string; effectiveDate: string; payload: Json }>(
      manifest,
      'transaction',
    );
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

  /** A partial repayment of a note is replayed; other entries have no way back (warned). */
  private manifestEntry(l: Located): Done {
    const entry = l.object.entry as { type: string; effectiveDate: string; payload: Json };
    if (entry.type !== 'TX_CONVERTIBLE_REPAYMENT') {
      this.warn(
        l,
        '',
        `ledgerline:transaction ${entry.type} ${String(l.object.id)} is not imported`,
      );
      return false;
    }
    const target = this.targets.get(String(entry.payload.holdingId));
    if (target?.kind !== 'holding') {
      this.problem(
        l,
        '',
        `the repayment ${String(l.object.id)} names a note that is not in the package`,
      );
      return false;
    }
    return this.record(l, {
      type: 'TX_CONVERTIBLE_REPAYMENT',
      effectiveDate: entry.effectiveDate,
      payload: {
        holdingId: target.id,
        amount: canonical(String(entry.payload.amount)),
        date: String(entry.payload.date),
      },
    });
  }

  /** The securities a transaction not imported results in are not imported either. */
  private skipResults(o: Json) {
    for (const r of arr(o.resulting_security_ids)) if (typeof r === 'string') this.skipped.add(r);
    const balance = str(o.balance_security_id);
    if (balance) this.skipped.add(balance);
  }

  /** Maps and replays one transaction: true when imported, false on a problem. */
  private transaction(l: Located, type: string): Done {
    switch (type) {
      case 'TX_STOCK_ISSUANCE':
        return this.stockIssuance(l);
      case 'TX_STOCK_TRANSFER':
        return this.stockTransfer(l);
      case 'TX_STOCK_CANCELLATION':
      case 'TX_STOCK_REPURCHASE':
        return this.stockCancellation(l, type);
      case 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT':
        return this.authorizedShares(l);
      case 'TX_STOCK_CLASS_SPLIT':
        return this.classSplit(l);
      case 'TX_STOCK_CLASS_CONVERSION_RATIO_ADJUSTMENT':
        return this.conversionRatioAdjustment(l);
      case 'TX_STOCK_PLAN_POOL_ADJUSTMENT':
        return this.poolAdjustment(l);
      case 'TX_EQUITY_COMPENSATION_ISSUANCE':
        return this.grant(l);
      case 'TX_WARRANT_ISSUANCE':
        return this.warrant(l);
      case 'TX_CONVERTIBLE_ISSUANCE':
        return this.convertible(l);
      case 'TX_EQUITY_COMPENSATION_EXERCISE':
      case 'TX_WARRANT_EXERCISE':
        return this.exercise(l, type);
      case 'TX_EQUITY_COMPENSATION_CANCELLATION':
      case 'TX_WARRANT_CANCELLATION':
        return this.holdingCancellation(l, type);
      case 'TX_CONVERTIBLE_CANCELLATION':
        return this.convertibleCancellation(l);
      case 'TX_CONVERTIBLE_CONVERSION':
        return this.conversion(l);
      case 'TX_VESTING_START':
        return this.vestingStart(l);
      case MANIFEST_ENTRY:
        return this.manifestEntry(l);
      default:
        return 'unsupported';
    }
  }
}
