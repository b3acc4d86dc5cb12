import Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type { LedgerTransaction } from '../../cap-table';
import { DefinitionsMapper } from './ocf-definitions';
import { amount, arr, canonical, notesOf, obj, str, type Located } from '../../../libs/ocf';
import { ISSUANCES } from './ocf-kept-fields';
import type { Done, Target } from './ocf-mapper-base';

/** References, pools, and the transactions of shares and classes. */
export abstract class StockTransactions extends DefinitionsMapper {
  /** Raises the export's pools toward their sizes as far as the plan's reservation allows. */
  protected fitPools(l: Located, planId: string, pools: { id: string; target: string }[]) {
    const plan = this.state.plans.get(planId)!;
    const current = pools.map((x) => this.state.pools.get(x.id)!);
    let free = current.reduce((f, x) => f.minus(x.sharesReserved), plan.sharesReserved);
    pools.forEach((x, i) => {
      const short = toDecimal(x.target).minus(current[i].sharesReserved);
      const more = Decimal.min(short, free);
      if (!more.gt(0)) return;
      free = free.minus(more);
      this.record(l, {
        type: 'STOCK_PLAN_POOL_UPDATED',
        effectiveDate: String(l.object.date ?? this.asOf),
        payload: {
          poolId: x.id,
          changes: { sharesReserved: toDecimalString(current[i].sharesReserved.plus(more)) },
        },
      });
    });
  }

  /** After the transactions: pools at the sizes the export gave, and the records it marked deleted. */
  protected afterTimeline() {
    if (this.problems.size) return;
    for (const l of this.pkg.plans) {
      const plan = this.plans.get(this.ocfId(l));
      if (!plan?.pools) continue;
      for (const x of plan.pools) {
        const po = this.state.pools.get(x.id);
        if (po && !po.sharesReserved.eq(toDecimal(x.target))) {
          this.record(l, {
            type: 'STOCK_PLAN_POOL_UPDATED',
            effectiveDate: this.asOf,
            payload: { poolId: x.id, changes: { sharesReserved: x.target } },
          });
        }
        if (x.deleted) {
          this.record(l, {
            type: 'STOCK_PLAN_POOL_DELETED',
            effectiveDate: this.asOf,
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
    this.deletions.sort((a, b) => rank.indexOf(a.type) - rank.indexOf(b.type));
    for (const d of this.deletions) {
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
      this.record(d.l, { type: d.type, effectiveDate: this.asOf, payload } as Omit<
        LedgerTransaction,
        'id'
      >);
    }
  }

  // ---- references

  /** Every reference of every transaction resolves to an object of the package. */
  protected checkReferences() {
    const refs: [string, Map<string, unknown>, string][] = [
      ['stakeholder_id', this.members, 'stakeholder'],
      ['stock_class_id', this.classes, 'stock class'],
      ['stock_plan_id', this.plans, 'stock plan'],
      ['vesting_terms_id', this.schedules, 'vesting terms'],
    ];
    for (const l of this.pkg.transactions) {
      const o = l.object;
      for (const [field, map, what] of refs) {
        const v = str(o[field]);
        if (v !== undefined && !map.has(v)) {
          this.problem(l, field, `the ${what} ${v} is not in the package`);
        }
      }
      arr(o.stock_legend_ids).forEach((id, i) => {
        if (typeof id === 'string' && !this.legends.has(id)) {
          this.problem(
            l,
            `stock_legend_ids/${i}`,
            `the stock legend template ${id} is not in the package`,
          );
        }
      });
      const security = str(o.security_id);
      const type = String(o.object_type);
      if (security && !ISSUANCES.has(type) && !this.issuedBy.has(security)) {
        this.problem(
          l,
          'security_id',
          `no transaction of the package issues the security ${security}`,
        );
      }
      arr(o.resulting_security_ids).forEach((r, i) => {
        const issuance = typeof r === 'string' ? this.issuedBy.get(r) : undefined;
        if (!issuance || issuance.object.object_type !== 'TX_STOCK_ISSUANCE') {
          this.problem(
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
        this.problem(
          l,
          'balance_security_id',
          `no TX_STOCK_ISSUANCE of the package issues the balance security ${balance}`,
        );
      }
    }
  }

  protected target(l: Located, kind: Target['kind']): string | null {
    const security = String(l.object.security_id);
    const t = this.targets.get(security);
    if (!t || t.kind !== kind) {
      this.problem(
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

  protected stockIssuance(l: Located): boolean {
    const o = l.object;
    const quantity = this.quantity(l, 'quantity', o.quantity);
    if (!quantity) return false;
    const shareholdingId = this.newId();
    const ok = this.record(l, {
      type: 'TX_STOCK_ISSUANCE',
      effectiveDate: String(o.date),
      payload: {
        shareholdingId,
        securityId: this.classes.get(String(o.stock_class_id))!,
        memberId: this.members.get(String(o.stakeholder_id))!.memberId,
        quantity,
        pricePerShare: this.note(o, 'pricePerShare') === null ? null : amount(o.share_price),
        issueDate: String(o.date),
        legendIds: arr(o.stock_legend_ids).map((id) => this.legends.get(String(id))!),
        consideration: str(o.consideration_text) ?? null,
      },
    });
    if (ok) this.issued(l, String(o.security_id), { kind: 'shareholding', id: shareholdingId });
    return ok;
  }

  /** Records what a security id is, and warns when the certificate number differs from custom_id. */
  protected issued(l: Located, security: string, target: Target) {
    this.targets.set(security, target);
    // Bookkeeping of the export (which transaction issued it): nothing to keep.
    this.notes(l.object, 'issuedBy');
    this.notes(l.object, 'shareholdingId');
    const custom = str(l.object.custom_id);
    if (target.kind === 'shareholding' && custom) {
      const certificate = this.state.shareholdings.get(target.id)?.certificateNumber;
      if (certificate && certificate !== custom) {
        this.warn(
          l,
          'custom_id',
          `certificates are numbered by their class: ${custom} is ${certificate}`,
        );
      }
    }
  }

  /** The resulting issuances of a transaction (checked to exist by checkReferences). */
  protected resulting(l: Located): Located[] {
    return arr(l.object.resulting_security_ids).map((r) => this.issuedBy.get(String(r))!);
  }

  /** The balance security, if any, stays the source holding: its id becomes an alias. */
  protected balance(l: Located, target: Target, remaining: string | null) {
    const balance = str(l.object.balance_security_id);
    if (!balance) return;
    const issuance = this.issuedBy.get(balance);
    if (issuance) {
      this.notes(issuance.object, 'issuedBy');
      this.notes(issuance.object, 'shareholdingId');
    }
    const quantity = str(issuance?.object.quantity);
    if (
      issuance &&
      remaining !== null &&
      quantity &&
      !toDecimal(quantity).eq(toDecimal(remaining))
    ) {
      this.problem(
        l,
        'balance_security_id',
        `the balance security ${balance} holds ${quantity}, but ${remaining} remain`,
      );
    }
    this.targets.set(balance, target);
  }

  protected stockTransfer(l: Located): boolean {
    const o = l.object;
    const sourceId = this.target(l, 'shareholding');
    const quantity = this.quantity(l, 'quantity', o.quantity);
    if (!sourceId || !quantity) return false;
    const source = this.state.shareholdings.get(sourceId)!;
    const results = this.resulting(l);
    // The export writes the price as text too; the note has it exactly.
    if (notesOf(o).has('pricePerShare')) this.keep(o, 'consideration_text');
    const total = results.reduce(
      (s, r) => s.plus(toDecimal(String(r.object.quantity))),
      toDecimal(0),
    );
    if (!total.eq(toDecimal(quantity))) {
      this.problem(
        l,
        'quantity',
        `the resulting securities hold ${toDecimalString(total)}, not ${quantity}`,
      );
      return false;
    }
    for (const r of results) {
      if (this.classes.get(String(r.object.stock_class_id)) !== source.securityId) {
        this.problem(
          l,
          'resulting_security_ids',
          `the resulting security ${String(r.object.security_id)} is of another class than the source`,
        );
        return false;
      }
    }
    for (const r of results) {
      const destinationId = this.newId();
      const ok = this.record(l, {
        type: 'TX_STOCK_TRANSFER',
        effectiveDate: String(o.date),
        payload: {
          sourceId,
          destinationId,
          toMemberId: this.members.get(String(r.object.stakeholder_id))!.memberId,
          quantity: canonical(String(r.object.quantity)),
          date: String(o.date),
          // The source's price carries over when the transfer names none (as the ledger does).
          pricePerShare: notesOf(o).has('pricePerShare')
            ? (this.note<string | null>(o, 'pricePerShare') ?? null)
            : amount(r.object.share_price) === source.pricePerShare
              ? null
              : amount(r.object.share_price),
        },
      });
      if (!ok) return false;
      this.issued(r, String(r.object.security_id), { kind: 'shareholding', id: destinationId });
    }
    this.balance(l, { kind: 'shareholding', id: sourceId }, toDecimalString(source.quantity));
    return true;
  }

  protected stockCancellation(l: Located, type: string): boolean {
    const o = l.object;
    const id = this.target(l, 'shareholding');
    const quantity = this.quantity(l, 'quantity', o.quantity);
    if (!id || !quantity) return false;
    const h = this.state.shareholdings.get(id)!;
    if (type === 'TX_STOCK_REPURCHASE') {
      this.warn(l, 'price', 'a repurchase is recorded as a cancellation: its price is not kept');
    }
    const reason =
      str(o.reason_text) ?? (type === 'TX_STOCK_REPURCHASE' ? 'repurchase' : 'cancellation');
    if (toDecimal(quantity).gt(h.quantity) || h.status !== 'active') {
      this.problem(
        l,
        'quantity',
        `${type} ${String(o.id)} takes ${quantity} from the security ${String(o.security_id)}, which holds ${h.status === 'active' ? toDecimalString(h.quantity) : `nothing (${h.status})`}`,
      );
      return false;
    }
    if (toDecimal(quantity).eq(h.quantity)) {
      return this.record(l, {
        type: 'TX_STOCK_CANCELLATION',
        effectiveDate: String(o.date),
        payload: { shareholdingId: id, quantity, reason },
      });
    }
    // The ledger voids whole holdings: a partial cancellation corrects the holding's quantity.
    const remaining = toDecimalString(h.quantity.minus(toDecimal(quantity)));
    this.warn(
      l,
      'quantity',
      `a partial cancellation is recorded as a correction of the holding to ${remaining}`,
    );
    const ok = this.record(l, {
      type: 'STOCK_ISSUANCE_AMENDED',
      effectiveDate: String(o.date),
      payload: { shareholdingId: id, changes: { quantity: remaining } },
    });
    if (ok) this.balance(l, { kind: 'shareholding', id }, remaining);
    return ok;
  }

  protected authorizedShares(l: Located): boolean {
    const o = l.object;
    const securityId = this.classes.get(String(o.stock_class_id))!;
    const s = this.state.securities.get(securityId)!;
    const next = str(o.new_shares_authorized)!;
    if (!/^[+-]?\d/.test(next)) {
      this.problem(
        l,
        'new_shares_authorized',
        `${next}: a class needs a number of authorized shares`,
      );
      return false;
    }
    this.notes(o, 'previousSharesAuthorized');
    return this.record(l, {
      type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
      effectiveDate: String(o.date),
      payload: {
        securityId,
        previousSharesAuthorized: toDecimalString(s.authorized),
        newSharesAuthorized: canonical(next),
        reason: this.note<string>(o, 'reason') ?? null,
      },
    });
  }

  /** A split of a class: every active shareholding of it, by the ratio (the reducer's rules). */
  protected classSplit(l: Located): Done {
    const o = l.object;
    const ratio = obj(o.split_ratio);
    if (!ratio) return 'unsupported';
    const securityId = this.classes.get(String(o.stock_class_id))!;
    this.notes(o, 'fractional');
    const before = [...this.state.shareholdings.values()]
      .filter((h) => h.securityId === securityId && h.status === 'active')
      .map((h) => ({ shareholdingId: h.id, quantity: toDecimalString(h.quantity) }));
    return this.record(l, {
      type: 'TX_STOCK_CLASS_SPLIT',
      effectiveDate: String(o.date),
      payload: {
        securityId,
        numerator: canonical(String(ratio.numerator)),
        denominator: canonical(String(ratio.denominator)),
        // The organization's kind decides, as for every quantity it imports.
        fractional: this.options.fractional,
        date: String(o.date),
        before,
      },
    });
  }

  protected conversionRatioAdjustment(l: Located): Done {
    const o = l.object;
    const mechanism = obj(o.new_ratio_conversion_mechanism);
    const pair = obj(mechanism?.ratio);
    if (!pair) return 'unsupported';
    return this.record(l, {
      type: 'STOCK_CLASS_UPDATED',
      effectiveDate: String(o.date),
      payload: {
        securityId: this.classes.get(String(o.stock_class_id))!,
        changes: {
          conversionRatio: toDecimalString(
            toDecimal(String(pair.numerator)).div(toDecimal(String(pair.denominator))),
          ),
        },
      },
    });
  }

  protected poolAdjustment(l: Located): boolean {
    const o = l.object;
    const plan = this.plans.get(String(o.stock_plan_id))!;
    const p = this.state.plans.get(plan.planId)!;
    this.notes(o, 'previousSharesReserved');
    const next = canonical(String(o.shares_reserved));
    const grow = toDecimal(next).gte(p.sharesReserved);
    const planTx = {
      type: 'TX_STOCK_PLAN_POOL_ADJUSTMENT' as const,
      effectiveDate: String(o.date),
      payload: {
        planId: plan.planId,
        previousSharesReserved: toDecimalString(p.sharesReserved),
        sharesReserved: next,
      },
    };
    if (plan.pools) {
      if (!this.record(l, planTx)) return false;
      this.fitPools(l, plan.planId, plan.pools);
      return true;
    }
    const poolTx = {
      type: 'STOCK_PLAN_POOL_UPDATED' as const,
      effectiveDate: String(o.date),
      payload: { poolId: plan.poolId, changes: { sharesReserved: next } },
    };
    // The pool stays within the plan: the plan grows first, or the pool shrinks first.
    return grow
      ? this.record(l, planTx) && this.record(l, poolTx)
      : this.record(l, poolTx) && this.record(l, planTx);
  }
}
