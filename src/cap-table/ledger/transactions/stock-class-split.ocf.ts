import { toDecimalString } from '../../../../libs/cap-math';
import {
  canonical,
  derivedId,
  ledgerComment,
  numeric,
  obj,
  withComments,
} from '../../../../libs/ocf';
import { type OcfMapping, TX_FIELDS } from './ocf-mapping';

/** The ratio in OCF; the import splits every active shareholding of the class as the ledger does. */
export const stockClassSplitOcf: OcfMapping<'TX_STOCK_CLASS_SPLIT'> = {
  export: {
    from: 'replayed',
    map(row, p, ctx) {
      const date = row.effectiveDate;
      const comments = [ledgerComment('fractional', p.fractional)];
      const s = ctx.state.securities.get(p.securityId);
      return [
        withComments(
          {
            object_type: 'TX_STOCK_CLASS_SPLIT',
            id: row.id,
            date,
            stock_class_id: p.securityId,
            split_ratio: { numerator: numeric(p.numerator), denominator: numeric(p.denominator) },
          },
          comments,
        ),
        // OCF leaves the authorized shares to their own transaction; the split changed them.
        ...(s
          ? [
              withComments(
                {
                  object_type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
                  id: derivedId(row.id, 'authorized-shares'),
                  date,
                  stock_class_id: p.securityId,
                  new_shares_authorized: numeric(toDecimalString(s.authorized)),
                },
                [ledgerComment('issuedBy', { transaction: row.id, role: 'split' })],
              ),
            ]
          : []),
      ];
    },
  },
  import: {
    objects: {
      TX_STOCK_CLASS_SPLIT: {
        keeps: [...TX_FIELDS, 'stock_class_id', 'split_ratio'],
        read(l, ctx) {
          const o = l.object;
          const ratio = obj(o.split_ratio);
          if (!ratio) return 'unsupported';
          const securityId = ctx.classes.get(String(o.stock_class_id))!;
          ctx.notes(o, 'fractional');
          const before = [...ctx.state.shareholdings.values()]
            .filter((h) => h.securityId === securityId && h.status === 'active')
            .map((h) => ({ shareholdingId: h.id, quantity: toDecimalString(h.quantity) }));
          return ctx.record(l, {
            type: 'TX_STOCK_CLASS_SPLIT',
            effectiveDate: String(o.date),
            payload: {
              securityId,
              numerator: canonical(String(ratio.numerator)),
              denominator: canonical(String(ratio.denominator)),
              // The organization's kind decides, as for every quantity it imports.
              fractional: ctx.fractional,
              date: String(o.date),
              before,
            },
          });
        },
      },
    },
  },
};
