import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { ledgerComment, numeric, str, withComments, type Located } from '../../../../libs/ocf';
import { type OcfImportContext, type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';

type CancellationType = 'TX_EQUITY_COMPENSATION_CANCELLATION' | 'TX_WARRANT_CANCELLATION';

/**
 * A cancellation of all a grant or warrant has outstanding is ours; of part of it, a correction
 * of its quantity, the rest in the balance security.
 */
function cancellation(l: Located, ctx: OcfImportContext, type: CancellationType): boolean {
  const o = l.object;
  const holdingId = ctx.target(l, 'holding');
  const quantity = ctx.quantity(l, 'quantity', o.quantity);
  if (!holdingId || !quantity) return false;
  const h = ctx.state.holdings.get(holdingId)!;
  const outstanding = h.quantity!.minus(h.exercised).minus(h.cancelled);
  const reason = str(o.reason_text) ?? 'cancellation';
  if (toDecimal(quantity).gt(outstanding) || h.status !== 'active') {
    ctx.problem(
      l,
      'quantity',
      `${type} ${String(o.id)} cancels ${quantity} of the security ${String(o.security_id)}, which has ${h.status === 'active' ? toDecimalString(outstanding) : `nothing (${h.status})`} outstanding`,
    );
    return false;
  }
  if (!toDecimal(quantity).eq(outstanding)) {
    const kept = toDecimalString(h.quantity!.minus(toDecimal(quantity)));
    ctx.warn(
      l,
      'quantity',
      `a partial cancellation is recorded as a correction of the quantity to ${kept}`,
    );
    const ok = ctx.record(l, {
      type: 'HOLDING_AMENDED',
      effectiveDate: String(o.date),
      payload: { holdingId, changes: { terms: { quantity: kept } } },
    });
    if (ok)
      ctx.balance(
        l,
        { kind: 'holding', id: holdingId },
        toDecimalString(outstanding.minus(toDecimal(quantity))),
      );
    return ok;
  }
  if (type === 'TX_WARRANT_CANCELLATION') {
    return ctx.record(l, {
      type,
      effectiveDate: String(o.date),
      payload: { holdingId, quantity, reason },
    });
  }
  const behavior = [...ctx.plans.values()].find((p) => p.poolId === h.poolId)?.behavior;
  return ctx.record(l, {
    type,
    effectiveDate: String(o.date),
    payload: {
      holdingId,
      quantity,
      returnedToPool: ctx.note<boolean>(o, 'returnedToPool') ?? behavior !== 'RETIRE',
      reason,
    },
  });
}

export const equityCompensationCancellationOcf: OcfMapping<'TX_EQUITY_COMPENSATION_CANCELLATION'> =
  {
    export: {
      from: 'replayed',
      map: (row, p) => [
        withComments(
          {
            object_type: 'TX_EQUITY_COMPENSATION_CANCELLATION',
            id: row.id,
            date: row.effectiveDate,
            security_id: p.holdingId,
            reason_text: p.reason || 'Cancelled',
            quantity: numeric(p.quantity),
          },
          [ledgerComment('returnedToPool', p.returnedToPool)],
        ),
      ],
    },
    import: {
      objects: {
        TX_EQUITY_COMPENSATION_CANCELLATION: {
          keeps: [...SECURITY_TX_FIELDS, 'reason_text', 'quantity', 'balance_security_id'],
          read: (l, ctx) => cancellation(l, ctx, 'TX_EQUITY_COMPENSATION_CANCELLATION'),
        },
      },
    },
  };

export const warrantCancellationOcf: OcfMapping<'TX_WARRANT_CANCELLATION'> = {
  export: {
    from: 'replayed',
    map: (row, p) => [
      {
        object_type: 'TX_WARRANT_CANCELLATION',
        id: row.id,
        date: row.effectiveDate,
        security_id: p.holdingId,
        reason_text: p.reason || 'Cancelled',
        quantity: numeric(p.quantity),
      },
    ],
  },
  import: {
    objects: {
      TX_WARRANT_CANCELLATION: {
        keeps: [...SECURITY_TX_FIELDS, 'reason_text', 'quantity', 'balance_security_id'],
        read: (l, ctx) => cancellation(l, ctx, 'TX_WARRANT_CANCELLATION'),
      },
    },
  },
};
