import { canonical, monetary, str } from '../../../../libs/ocf';
import { type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';

/**
 * The amount cancelled is what the convertible held. OCF's cancellation is also how the export
 * writes a repayment in full (its `ledgerline:repayment` says so): the import reads it back as one.
 */
export const convertibleCancellationOcf: OcfMapping<'TX_CONVERTIBLE_CANCELLATION'> = {
  export: {
    from: 'replayed',
    map(row, p, ctx) {
      // Cancelling changes neither the principal nor the terms.
      const h = ctx.state.holdings.get(p.holdingId);
      const amount = h?.principalOutstanding ?? h?.terms.amount ?? h?.terms.principal ?? '0';
      return [
        {
          object_type: 'TX_CONVERTIBLE_CANCELLATION',
          id: row.id,
          date: row.effectiveDate,
          security_id: p.holdingId,
          reason_text: p.reason || 'Cancelled',
          amount: monetary(String(amount), h?.terms.currency ?? ctx.currency),
        },
      ];
    },
  },
  import: {
    objects: {
      TX_CONVERTIBLE_CANCELLATION: {
        keeps: [...SECURITY_TX_FIELDS, 'reason_text'],
        read(l, ctx) {
          const holdingId = ctx.target(l, 'holding');
          if (!holdingId) return false;
          const repayment = ctx.note<{ amount: string; date: string }>(l.object, 'repayment');
          if (repayment) {
            ctx.keep(l.object, 'amount');
            return ctx.record(l, {
              type: 'TX_CONVERTIBLE_REPAYMENT',
              effectiveDate: String(repayment.date),
              payload: {
                holdingId,
                amount: canonical(String(repayment.amount)),
                date: String(repayment.date),
              },
            });
          }
          return ctx.record(l, {
            type: 'TX_CONVERTIBLE_CANCELLATION',
            effectiveDate: String(l.object.date),
            payload: { holdingId, reason: str(l.object.reason_text) ?? 'cancellation' },
          });
        },
      },
    },
  },
};
