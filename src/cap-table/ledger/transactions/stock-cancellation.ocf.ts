import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { numeric, str, type Located } from '../../../../libs/ocf';
import { type OcfImportContext, type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';

/**
 * A cancellation (or a repurchase: its price is not kept) of a whole shareholding is ours; of
 * part of it, a correction of the shareholding's quantity, the rest in the balance security.
 */
function cancellation(l: Located, ctx: OcfImportContext, type: string): boolean {
  const o = l.object;
  const id = ctx.target(l, 'shareholding');
  const quantity = ctx.quantity(l, 'quantity', o.quantity);
  if (!id || !quantity) return false;
  const h = ctx.state.shareholdings.get(id)!;
  if (type === 'TX_STOCK_REPURCHASE') {
    ctx.warn(l, 'price', 'a repurchase is recorded as a cancellation: its price is not kept');
  }
  const reason =
    str(o.reason_text) ?? (type === 'TX_STOCK_REPURCHASE' ? 'repurchase' : 'cancellation');
  if (toDecimal(quantity).gt(h.quantity) || h.status !== 'active') {
    ctx.problem(
      l,
      'quantity',
      `${type} ${String(o.id)} takes ${quantity} from the security ${String(o.security_id)}, which holds ${h.status === 'active' ? toDecimalString(h.quantity) : `nothing (${h.status})`}`,
    );
    return false;
  }
  if (toDecimal(quantity).eq(h.quantity)) {
    return ctx.record(l, {
      type: 'TX_STOCK_CANCELLATION',
      effectiveDate: String(o.date),
      payload: { shareholdingId: id, quantity, reason },
    });
  }
  // The ledger voids whole holdings: a partial cancellation corrects the holding's quantity.
  const remaining = toDecimalString(h.quantity.minus(toDecimal(quantity)));
  ctx.warn(
    l,
    'quantity',
    `a partial cancellation is recorded as a correction of the holding to ${remaining}`,
  );
  const ok = ctx.record(l, {
    type: 'STOCK_ISSUANCE_AMENDED',
    effectiveDate: String(o.date),
    payload: { shareholdingId: id, changes: { quantity: remaining } },
  });
  if (ok) ctx.balance(l, { kind: 'shareholding', id }, remaining);
  return ok;
}

export const stockCancellationOcf: OcfMapping<'TX_STOCK_CANCELLATION'> = {
  export: {
    from: 'row',
    map: (row, p, ctx) => [
      {
        object_type: 'TX_STOCK_CANCELLATION',
        id: row.id,
        date: row.effectiveDate,
        security_id: ctx.securityIdOf(p.shareholdingId),
        reason_text: p.reason || 'Voided',
        quantity: numeric(p.quantity),
      },
    ],
  },
  import: {
    objects: {
      TX_STOCK_CANCELLATION: {
        keeps: [...SECURITY_TX_FIELDS, 'reason_text', 'quantity', 'balance_security_id'],
        read: (l, ctx) => cancellation(l, ctx, 'TX_STOCK_CANCELLATION'),
      },
    },
    fallbacks: {
      TX_STOCK_REPURCHASE: {
        keeps: [...SECURITY_TX_FIELDS, 'quantity', 'balance_security_id'],
        read: (l, ctx) => cancellation(l, ctx, 'TX_STOCK_REPURCHASE'),
      },
    },
  },
};
