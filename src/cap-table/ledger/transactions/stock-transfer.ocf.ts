import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import {
  amount,
  canonical,
  compact,
  derivedId,
  ledgerComment,
  notesOf,
  numeric,
  withComments,
  type OcfItem,
} from '../../../../libs/ocf';
import { type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';
import { stockIssuanceItem } from './stock-issuance.ocf';

/**
 * OCF consumes the source security: the transfer results in the transferee's new security and,
 * when shares are left, a balance security of the transferor (which the source's later entries
 * name). The import reads one transfer of ours per resulting security.
 */
export const stockTransferOcf: OcfMapping<'TX_STOCK_TRANSFER'> = {
  export: {
    from: 'row',
    map(row, p, ctx) {
      const src = row.source;
      const consumed = ctx.securityIdOf(p.sourceId);
      const partial = src !== null && toDecimal(src.remainder).gt(0);
      const balanceId = partial ? derivedId(row.id, 'balance') : undefined;
      const comments: string[] = [];
      if (p.pricePerShare !== null) comments.push(ledgerComment('pricePerShare', p.pricePerShare));
      const currency = ctx.currencyOf(src?.securityId);
      const items: OcfItem[] = [
        withComments(
          compact({
            object_type: 'TX_STOCK_TRANSFER',
            id: row.id,
            date: p.date,
            security_id: consumed,
            consideration_text:
              p.pricePerShare !== null ? `${p.pricePerShare} ${currency} per share` : undefined,
            balance_security_id: balanceId,
            resulting_security_ids: [p.destinationId],
            quantity: numeric(p.quantity),
          }),
          comments,
        ) as OcfItem,
      ];
      if (!src) return items;
      items.push(
        stockIssuanceItem(
          ctx,
          {
            id: derivedId(row.id, 'resulting-issuance'),
            date: p.date,
            securityId: p.destinationId,
            certificateNumber: row.made?.certificateNumber ?? p.destinationId,
            memberId: p.toMemberId,
            classId: src.securityId,
            pricePerShare: p.pricePerShare ?? src.pricePerShare,
            quantity: p.quantity,
            legendIds: row.made?.legendIds ?? src.legendIds,
            consideration: null,
          },
          [ledgerComment('issuedBy', { transaction: row.id, role: 'resulting' })],
        ),
      );
      if (balanceId) {
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
              ledgerComment('shareholdingId', p.sourceId),
            ],
          ),
        );
        ctx.replaceSecurity(p.sourceId, balanceId);
      }
      return items;
    },
  },
  import: {
    objects: {
      TX_STOCK_TRANSFER: {
        keeps: [...SECURITY_TX_FIELDS, 'resulting_security_ids', 'quantity', 'balance_security_id'],
        read(l, ctx) {
          const o = l.object;
          const sourceId = ctx.target(l, 'shareholding');
          const quantity = ctx.quantity(l, 'quantity', o.quantity);
          if (!sourceId || !quantity) return false;
          const source = ctx.state.shareholdings.get(sourceId)!;
          const results = ctx.resulting(l);
          // The export writes the price as text too; the note has it exactly.
          if (notesOf(o).has('pricePerShare')) ctx.keep(o, 'consideration_text');
          const total = results.reduce(
            (s, r) => s.plus(toDecimal(String(r.object.quantity))),
            toDecimal(0),
          );
          if (!total.eq(toDecimal(quantity))) {
            ctx.problem(
              l,
              'quantity',
              `the resulting securities hold ${toDecimalString(total)}, not ${quantity}`,
            );
            return false;
          }
          for (const r of results) {
            if (ctx.classes.get(String(r.object.stock_class_id)) !== source.securityId) {
              ctx.problem(
                l,
                'resulting_security_ids',
                `the resulting security ${String(r.object.security_id)} is of another class than the source`,
              );
              return false;
            }
          }
          for (const r of results) {
            const destinationId = ctx.newId();
            const ok = ctx.record(l, {
              type: 'TX_STOCK_TRANSFER',
              effectiveDate: String(o.date),
              payload: {
                sourceId,
                destinationId,
                toMemberId: ctx.members.get(String(r.object.stakeholder_id))!.memberId,
                quantity: canonical(String(r.object.quantity)),
                date: String(o.date),
                // The source's price carries over when the transfer names none (as the ledger does).
                pricePerShare: notesOf(o).has('pricePerShare')
                  ? (ctx.note<string | null>(o, 'pricePerShare') ?? null)
                  : amount(r.object.share_price) === source.pricePerShare
                    ? null
                    : amount(r.object.share_price),
              },
            });
            if (!ok) return false;
            ctx.issued(r, String(r.object.security_id), {
              kind: 'shareholding',
              id: destinationId,
            });
          }
          ctx.balance(l, { kind: 'shareholding', id: sourceId }, toDecimalString(source.quantity));
          return true;
        },
      },
    },
  },
};
