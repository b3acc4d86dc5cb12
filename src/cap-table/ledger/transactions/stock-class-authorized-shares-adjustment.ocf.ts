import { toDecimalString } from '../../../../libs/cap-math';
import { canonical, ledgerComment, numeric, str, withComments } from '../../../../libs/ocf';
import { type OcfMapping, TX_FIELDS } from './ocf-mapping';

/** The same in OCF; what the class authorized before, and why, in comments. */
export const authorizedSharesAdjustmentOcf: OcfMapping<'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT'> =
  {
    export: {
      from: 'replayed',
      map(row, p) {
        const comments = [ledgerComment('previousSharesAuthorized', p.previousSharesAuthorized)];
        if (p.reason) comments.push(ledgerComment('reason', p.reason));
        return [
          withComments(
            {
              object_type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
              id: row.id,
              date: row.effectiveDate,
              stock_class_id: p.securityId,
              new_shares_authorized: numeric(p.newSharesAuthorized),
            },
            comments,
          ),
        ];
      },
    },
    import: {
      objects: {
        TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: {
          keeps: [...TX_FIELDS, 'stock_class_id', 'new_shares_authorized'],
          read(l, ctx) {
            const o = l.object;
            const securityId = ctx.classes.get(String(o.stock_class_id))!;
            const s = ctx.state.securities.get(securityId)!;
            const next = str(o.new_shares_authorized)!;
            if (!/^[+-]?\d/.test(next)) {
              ctx.problem(
                l,
                'new_shares_authorized',
                `${next}: a class needs a number of authorized shares`,
              );
              return false;
            }
            ctx.notes(o, 'previousSharesAuthorized');
            return ctx.record(l, {
              type: 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
              effectiveDate: String(o.date),
              payload: {
                securityId,
                previousSharesAuthorized: toDecimalString(s.authorized),
                newSharesAuthorized: canonical(next),
                reason: ctx.note<string>(o, 'reason') ?? null,
              },
            });
          },
        },
      },
    },
  };
