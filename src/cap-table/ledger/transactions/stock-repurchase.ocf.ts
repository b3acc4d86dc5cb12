import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import {
  amount,
  compact,
  derivedId,
  ledgerComment,
  numeric,
  str,
  withComments,
  type OcfItem,
} from '../../../../libs/ocf';
import { type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';
import { stockIssuanceItem } from './stock-issuance.ocf';

/**
 * OCF consumes the source security: a repurchase of part of it leaves a balance security of the
 * holder (which the source's later entries name), as a transfer does. The import reads it back as
 * one repurchase of ours, the balance staying the shareholding.
 */
export const stockRepurchaseOcf: OcfMapping<'TX_STOCK_REPURCHASE'> = {
  export: {
    from: 'row',
    map(row, p, ctx) {
      const src = row.source;
      const partial = src !== null && toDecimal(src.remainder).gt(0);
      const balanceId = partial ? derivedId(row.id, 'balance') : undefined;
      const items: OcfItem[] = [
        withComments(
          compact({
            object_type: 'TX_STOCK_REPURCHASE',
            id: row.id,
            date: p.date,
            security_id: ctx.securityIdOf(p.shareholdingId),
            price: { amount: numeric(p.pricePerShare), currency: p.currency },
            quantity: numeric(p.quantity),
            consideration_text: p.consideration ?? undefined,
            balance_security_id: balanceId,
          }),
          [],
        ) as OcfItem,
      ];
      if (src && balanceId) {
        items.push(
          stockIssuanceItem(
            ctx,
            {
              id: derivedId(row.id, 'balance-issuance'),
              date: p.date,
              securityId: balanceId,
              certificateNumber: src.certificateNumber,
              memberId: src.memberId,
              classId: src.securityId,
              pricePerShare: src.pricePerShare,
              quantity: src.remainder,
              legendIds: src.legendIds,
              consideration: src.consideration,
            },
            [
              ledgerComment('issuedBy', { transaction: row.id, role: 'balance' }),
              ledgerComment('shareholdingId', p.shareholdingId),
            ],
          ),
        );
        ctx.replaceSecurity(p.shareholdingId, balanceId);
      }
      return items;
    },
  },
  import: {
    objects: {
      TX_STOCK_REPURCHASE: {
        keeps: [
          ...SECURITY_TX_FIELDS,
          'price',
          'quantity',
          'consideration_text',
          'balance_security_id',
        ],
        read(l, ctx) {
          const o = l.object;
          const shareholdingId = ctx.target(l, 'shareholding');
          const quantity = ctx.quantity(l, 'quantity', o.quantity);
          const price = amount(o.price);
          if (!shareholdingId || !quantity) return false;
          if (price === null) {
            ctx.problem(l, 'price', 'a repurchase needs its price');
            return false;
          }
          const priced = o.price as { currency?: unknown };
          const ok = ctx.record(l, {
            type: 'TX_STOCK_REPURCHASE',
            effectiveDate: String(o.date),
            payload: {
              shareholdingId,
              quantity,
              pricePerShare: price,
              currency: String(priced.currency),
              date: String(o.date),
              consideration: str(o.consideration_text) ?? null,
            },
          });
          if (!ok) return false;
          const left = ctx.state.shareholdings.get(shareholdingId)!;
          ctx.balance(
            l,
            { kind: 'shareholding', id: shareholdingId },
            left.status === 'active' ? toDecimalString(left.quantity) : null,
          );
          return true;
        },
      },
    },
  },
};
