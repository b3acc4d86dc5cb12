import { toDecimal } from '../../../libs/cap-math';
import { arr, str, type Located } from '../../../libs/ocf';
import type { OcfTarget } from '../../cap-table';
import type { ImportBook } from './ocf-import-book';
import { ISSUANCES } from './ocf-kept-fields';
import type { OcfPackage } from './ocf-package';

/**
 * The securities of the package: which transaction issues each, which are results of others,
 * that every reference of every transaction resolves, and what each security id is once imported.
 */
export class Securities {
  /** security_id → the issuance that issues it. */
  readonly issuedBy = new Map<string, Located>();
  /** Security ids that another transaction's result or balance names. */
  readonly results = new Set<string>();
  /** security_id → what it is now. */
  readonly targets = new Map<string, OcfTarget>();
  /** security_id → the first vesting start date of it. */
  readonly vestingStarts = new Map<string, Located>();

  constructor(
    private readonly book: ImportBook,
    private readonly pkg: OcfPackage,
  ) {}

  index() {
    const seen = new Set<string>();
    for (const l of this.pkg.transactions) {
      if (!this.book.unique(seen, l)) continue;
      const o = l.object;
      const type = String(o.object_type);
      const security = str(o.security_id);
      if (ISSUANCES.has(type) && security) {
        if (this.issuedBy.has(security)) {
          this.book.problem(l, 'security_id', `the security ${security} is issued twice`);
        } else this.issuedBy.set(security, l);
      }
      for (const r of arr(o.resulting_security_ids)) if (typeof r === 'string') this.results.add(r);
      const balance = str(o.balance_security_id);
      if (balance) this.results.add(balance);
      if (type === 'TX_VESTING_START' && security && !this.vestingStarts.has(security)) {
        this.vestingStarts.set(security, l);
      }
    }
  }

  /** Every reference of every transaction resolves to an object of the package. */
  checkReferences() {
    const book = this.book;
    const refs: [string, Map<string, unknown>, string][] = [
      ['stakeholder_id', book.members, 'stakeholder'],
      ['stock_class_id', book.classes, 'stock class'],
      ['stock_plan_id', book.plans, 'stock plan'],
      ['vesting_terms_id', book.schedules, 'vesting terms'],
    ];
    for (const l of this.pkg.transactions) {
      const o = l.object;
      for (const [field, map, what] of refs) {
        const v = str(o[field]);
        if (v !== undefined && !map.has(v)) {
          book.problem(l, field, `the ${what} ${v} is not in the package`);
        }
      }
      arr(o.stock_legend_ids).forEach((id, i) => {
        if (typeof id === 'string' && !book.legends.has(id)) {
          book.problem(
            l,
            `stock_legend_ids/${i}`,
            `the stock legend template ${id} is not in the package`,
          );
        }
      });
      const security = str(o.security_id);
      const type = String(o.object_type);
      if (security && !ISSUANCES.has(type) && !this.issuedBy.has(security)) {
        book.problem(
          l,
          'security_id',
          `no transaction of the package issues the security ${security}`,
        );
      }
      arr(o.resulting_security_ids).forEach((r, i) => {
        const issuance = typeof r === 'string' ? this.issuedBy.get(r) : undefined;
        if (!issuance || issuance.object.object_type !== 'TX_STOCK_ISSUANCE') {
          book.problem(
            l,
            `resulting_security_ids/${i}`,
            `no TX_STOCK_ISSUANCE of the package issues the resulting security ${String(r)}`,
          );
        }
      });
      const balance = str(o.balance_security_id);
      if (
        balance &&
        this.issuedBy.get(balance)?.object.object_type !== 'TX_STOCK_ISSUANCE' &&
        type.startsWith('TX_STOCK_')
      ) {
        book.problem(
          l,
          'balance_security_id',
          `no TX_STOCK_ISSUANCE of the package issues the balance security ${balance}`,
        );
      }
    }
  }

  target(l: Located, kind: OcfTarget['kind']): string | null {
    const security = String(l.object.security_id);
    const t = this.targets.get(security);
    if (!t || t.kind !== kind) {
      this.book.problem(
        l,
        'security_id',
        t
          ? `the security ${security} is not a ${kind === 'holding' ? 'grant, warrant or convertible' : 'stock'} security`
          : `the security ${security} does not exist on ${String(l.object.date)}`,
      );
      return null;
    }
    return t.id;
  }

  /** Records what a security id is, and warns when the certificate number differs from custom_id. */
  issued(l: Located, security: string, target: OcfTarget) {
    this.targets.set(security, target);
    // Bookkeeping of the export (which transaction issued it): nothing to keep.
    this.book.notes(l.object, 'issuedBy');
    this.book.notes(l.object, 'shareholdingId');
    const custom = str(l.object.custom_id);
    if (target.kind === 'shareholding' && custom) {
      const certificate = this.book.state.shareholdings.get(target.id)?.certificateNumber;
      if (certificate && certificate !== custom) {
        this.book.warn(
          l,
          'custom_id',
          `certificates are numbered by their class: ${custom} is ${certificate}`,
        );
      }
    }
  }

  /** The resulting issuances of a transaction (checked to exist by checkReferences). */
  resulting(l: Located): Located[] {
    return arr(l.object.resulting_security_ids).map((r) => this.issuedBy.get(String(r))!);
  }

  /** The one resulting stock issuance of an exercise or conversion. */
  oneResult(l: Located): Located | null {
    const results = this.resulting(l);
    if (results.length !== 1) {
      this.book.problem(
        l,
        'resulting_security_ids',
        'must name exactly one resulting stock issuance',
      );
      return null;
    }
    return results[0];
  }

  /** The balance security, if any, stays the source holding: its id becomes an alias. */
  balance(l: Located, target: OcfTarget, remaining: string | null) {
    const balance = str(l.object.balance_security_id);
    if (!balance) return;
    const issuance = this.issuedBy.get(balance);
    if (issuance) {
      this.book.notes(issuance.object, 'issuedBy');
      this.book.notes(issuance.object, 'shareholdingId');
    }
    const quantity = str(issuance?.object.quantity);
    if (
      issuance &&
      remaining !== null &&
      quantity &&
      !toDecimal(quantity).eq(toDecimal(remaining))
    ) {
      this.book.problem(
        l,
        'balance_security_id',
        `the balance security ${balance} holds ${quantity}, but ${remaining} remain`,
      );
    }
    this.targets.set(balance, target);
  }
}
