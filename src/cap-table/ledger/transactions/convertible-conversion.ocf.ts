import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import {
  amount,
  arr,
  canonical,
  conversionTriggerId,
  ledgerComment,
  numeric,
  withComments,
} from '../../../../libs/ocf';
import { type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';
import { resultingIssuance } from './stock-issuance.ocf';

/** The conversion and the stock issuance of its shareholding; the terms it used in a comment. */
export const convertibleConversionOcf: OcfMapping<'TX_CONVERTIBLE_CONVERSION'> = {
  export: {
    from: 'replayed',
    map(row, p, ctx) {
      const c = p.conversion;
      const h = ctx.state.holdings.get(p.holdingId);
      return [
        withComments(
          {
            object_type: 'TX_CONVERTIBLE_CONVERSION',
            id: row.id,
            date: c.date,
            security_id: p.holdingId,
            resulting_security_ids: [c.shareholdingId],
            reason_text: `Converted at ${c.conversionPrice} per share (${c.method}) in a financing at ${c.roundPricePerShare} per share`,
            quantity_converted: numeric(c.conversionAmount),
            trigger_id: conversionTriggerId(p.holdingId),
          },
          [ledgerComment('conversion', c)],
        ),
        resultingIssuance(ctx, row, h?.memberId, {
          date: c.date,
          securityId: c.shareholdingId,
          classId: c.securityId,
          pricePerShare: c.conversionPrice,
          quantity: c.shares,
          legendIds: p.legendIds,
          consideration: row.made?.consideration ?? null,
        }),
      ];
    },
  },
  import: {
    objects: {
      TX_CONVERTIBLE_CONVERSION: {
        keeps: [
          ...SECURITY_TX_FIELDS,
          'resulting_security_ids',
          'trigger_id',
          'quantity_converted',
        ],
        read(l, ctx) {
          const o = l.object;
          const holdingId = ctx.target(l, 'holding');
          const result = ctx.oneResult(l);
          if (!holdingId || !result) return false;
          const h = ctx.state.holdings.get(holdingId)!;
          const shares = ctx.quantity(result, 'quantity', result.object.quantity);
          if (!shares) return false;
          const converted = canonical(
            h.terms.amount ?? toDecimalString(h.principalOutstanding ?? toDecimal(0)),
          );
          const price =
            amount(result.object.share_price) ??
            toDecimalString(toDecimal(converted).div(toDecimal(shares)).toDecimalPlaces(10));
          const shareholdingId = ctx.newId();
          const noted = ctx.note<Record<string, string | null>>(o, 'conversion');
          // The export's reason text says what the note holds.
          if (noted) ctx.keep(o, 'reason_text');
          const ok = ctx.record(l, {
            type: 'TX_CONVERTIBLE_CONVERSION',
            effectiveDate: String(o.date),
            payload: {
              holdingId,
              conversion: {
                date: String(o.date),
                shareholdingId,
                securityId: ctx.classes.get(String(result.object.stock_class_id))!,
                shares,
                conversionPrice: noted?.conversionPrice ?? price,
                method: (noted?.method as 'cap' | 'discount' | 'price' | undefined) ?? 'price',
                conversionAmount: noted?.conversionAmount ?? converted,
                roundPricePerShare: noted?.roundPricePerShare ?? price,
                preMoneyValuation: noted?.preMoneyValuation ?? null,
              },
              legendIds: arr(result.object.stock_legend_ids).map((id) =>
                ctx.legends.get(String(id))!,
              ),
            },
          });
          if (ok)
            ctx.issued(result, String(result.object.security_id), {
              kind: 'shareholding',
              id: shareholdingId,
            });
          return ok;
        },
      },
    },
  },
};
