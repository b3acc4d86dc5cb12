import Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type { Located } from '../../../libs/ocf';
import type { LedgerTransaction } from '../../cap-table';
import type { ImportBook } from './ocf-import-book';
import type { OcfPackage } from './ocf-package';

/**
 * The pools the export listed, at their sizes, and the records it marked deleted: kept in step
 * with the plans as the transactions change them, and set once they have all been read.
 */
export class PlanPools {
  constructor(
    private readonly book: ImportBook,
    private readonly pkg: OcfPackage,
  ) {}

  /** Raises the export's pools toward their sizes as far as the plan's reservation allows. */
  fitPools(l: Located, planId: string, pools: { id: string; target: string }[]) {
    const state = this.book.state;
    const plan = state.plans.get(planId)!;
    const current = pools.map((x) => state.pools.get(x.id)!);
    let free = current.reduce((f, x) => f.minus(x.sharesReserved), plan.sharesReserved);
    pools.forEach((x, i) => {
      const short = toDecimal(x.target).minus(current[i].sharesReserved);
      const more = Decimal.min(short, free);
      if (!more.gt(0)) return;
      free = free.minus(more);
      this.book.record(l, {
        type: 'STOCK_PLAN_POOL_UPDATED',
        effectiveDate: String(l.object.date ?? this.book.asOf),
        payload: {
          poolId: x.id,
          changes: { sharesReserved: toDecimalString(current[i].sharesReserved.plus(more)) },
        },
      });
    });
  }

  /** After the transactions: pools at the sizes the export gave, and the records it marked deleted. */
  afterTimeline() {
    const book = this.book;
    if (book.problems.size) return;
    for (const l of this.pkg.plans) {
      const plan = book.plans.get(book.ocfId(l));
      if (!plan?.pools) continue;
      for (const x of plan.pools) {
        const po = book.state.pools.get(x.id);
        if (po && !po.sharesReserved.eq(toDecimal(x.target))) {
          book.record(l, {
            type: 'STOCK_PLAN_POOL_UPDATED',
            effectiveDate: book.asOf,
            payload: { poolId: x.id, changes: { sharesReserved: x.target } },
          });
        }
        if (x.deleted) {
          book.record(l, {
            type: 'STOCK_PLAN_POOL_DELETED',
            effectiveDate: book.asOf,
            payload: { poolId: x.id },
          });
        }
      }
    }
    const rank = [
      'STOCK_PLAN_POOL_DELETED',
      'STOCK_PLAN_DELETED',
      'VESTING_TERMS_DELETED',
      'STOCK_LEGEND_TEMPLATE_DELETED',
      'STOCK_CLASS_DELETED',
    ];
    book.deletions.sort((a, b) => rank.indexOf(a.type) - rank.indexOf(b.type));
    for (const d of book.deletions) {
      const payload =
        d.type === 'STOCK_CLASS_DELETED'
          ? { securityId: d.id }
          : d.type === 'STOCK_LEGEND_TEMPLATE_DELETED'
            ? { legendId: d.id }
            : d.type === 'STOCK_PLAN_DELETED'
              ? { planId: d.id }
              : d.type === 'VESTING_TERMS_DELETED'
                ? { vestingScheduleId: d.id }
                : { poolId: d.id };
      book.record(d.l, { type: d.type, effectiveDate: book.asOf, payload } as Omit<
        LedgerTransaction,
        'id'
      >);
    }
  }
}
