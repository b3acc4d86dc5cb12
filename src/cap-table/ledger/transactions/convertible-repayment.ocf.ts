import { canonical, ledgerComment, monetary, withComments } from '../../../../libs/ocf';
import type { OcfMapping } from './ocf-mapping';

/**
 * A repayment in full closes the note: an OCF cancellation (see convertible-cancellation.ocf.ts).
 * A partial one leaves it going, and OCF has no transaction for it: kept in the manifest's
 * comments, and read back from there.
 */
export const convertibleRepaymentOcf: OcfMapping<'TX_CONVERTIBLE_REPAYMENT'> = {
  export: {
    from: 'replayed',
    map(row, p, ctx) {
      const h = ctx.state.holdings.get(p.holdingId);
      if (h?.status !== 'repaid') {
        ctx.keepInManifest(row);
        return [];
      }
      return [
        withComments(
          {
            object_type: 'TX_CONVERTIBLE_CANCELLATION',
            id: row.id,
            date: p.date,
            security_id: p.holdingId,
            reason_text: 'Repaid in full',
            amount: monetary(p.amount, h.terms.currency ?? ctx.currency),
          },
          [ledgerComment('repayment', { amount: p.amount, date: p.date })],
        ),
      ];
    },
  },
  import: {
    fromManifest(l, entry, ctx) {
      const target = ctx.targets.get(String(entry.payload.holdingId));
      if (target?.kind !== 'holding') {
        ctx.problem(
          l,
          '',
          `the repayment ${String(l.object.id)} names a note that is not in the package`,
        );
        return false;
      }
      return ctx.record(l, {
        type: 'TX_CONVERTIBLE_REPAYMENT',
        effectiveDate: entry.effectiveDate,
        payload: {
          holdingId: target.id,
          amount: canonical(String(entry.payload.amount)),
          date: String(entry.payload.date),
        },
      });
    },
  },
};
