import { toDecimal } from '../../../../libs/cap-math';
import {
  amount,
  arr,
  derivedId,
  ledgerComment,
  monetary,
  numeric,
  str,
  type OcfItem,
} from '../../../../libs/ocf';
import type { LedgerLogEntry } from '../ledger-log-entry';
import { type OcfExportContext, type OcfMapping, ISSUANCE_FIELDS } from './ocf-mapping';

/** What a TX_STOCK_ISSUANCE says of the shareholding it issues. */
export interface IssuedShares {
  id: string;
  date: string;
  securityId: string;
  certificateNumber: string;
  memberId: string;
  classId: string;
  pricePerShare: string | null;
  quantity: string;
  legendIds: string[];
  consideration: string | null;
}

/**
 * A TX_STOCK_ISSUANCE: of an issuance, and of the shareholding a transfer, exercise or conversion
 * creates (OCF names a holder only on an issuance).
 */
export function stockIssuanceItem(
  ctx: OcfExportContext,
  fields: IssuedShares,
  comments: string[],
): OcfItem {
  if (fields.pricePerShare === null) comments.push(ledgerComment('pricePerShare', null));
  // Built as written (no copies): a cap table of 100,000 issuances passes through here.
  const item: OcfItem = {
    object_type: 'TX_STOCK_ISSUANCE',
    id: fields.id,
    date: fields.date,
    security_id: fields.securityId,
    custom_id: fields.certificateNumber,
    stakeholder_id: fields.memberId,
  };
  if (fields.consideration !== null) item.consideration_text = fields.consideration;
  item.security_law_exemptions = [];
  item.stock_class_id = fields.classId;
  item.share_price = monetary(fields.pricePerShare ?? '0', ctx.currencyOf(fields.classId));
  item.quantity = numeric(fields.quantity, comments, 'quantity');
  item.stock_legend_ids = fields.legendIds;
  if (comments.length) item.comments = comments;
  return item;
}

/**
 * The TX_STOCK_ISSUANCE of the shareholding an exercise or a conversion creates: its id derived
 * from the entry's, its certificate and holder from the holding (or the log row's shareholding).
 */
export function resultingIssuance(
  ctx: OcfExportContext,
  entry: LedgerLogEntry,
  holderId: string | undefined,
  fields: Omit<IssuedShares, 'id' | 'certificateNumber' | 'memberId'>,
): OcfItem {
  return stockIssuanceItem(
    ctx,
    {
      ...fields,
      id: derivedId(entry.id, 'resulting-issuance'),
      certificateNumber: entry.made?.certificateNumber ?? fields.securityId,
      memberId: holderId ?? entry.made?.memberId ?? '',
    },
    [ledgerComment('issuedBy', { transaction: entry.id, role: 'resulting' })],
  );
}

/**
 * The shareholding as it stands (the log row's `made`: the payload carries only what the row does
 * not), its corrections in the comments. Imported back as written.
 */
export const stockIssuanceOcf: OcfMapping<'TX_STOCK_ISSUANCE'> = {
  export: {
    from: 'row',
    payloadWithMade: ['shareholdingId', 'memberId', 'securityId', 'quantity'],
    map(row, p, ctx) {
      const m = row.made;
      const comments = ctx.amendmentComments(p.shareholdingId);
      if (m && toDecimal(m.issuedQuantity).cmp(toDecimal(p.quantity)) !== 0) {
        comments.push(ledgerComment('recordedQuantity', p.quantity));
      }
      return [
        stockIssuanceItem(
          ctx,
          {
            id: row.id,
            date: m?.issueDate ?? p.issueDate,
            securityId: p.shareholdingId,
            certificateNumber: m?.certificateNumber ?? p.shareholdingId,
            memberId: p.memberId,
            classId: p.securityId,
            pricePerShare: m ? m.pricePerShare : p.pricePerShare,
            quantity: m?.issuedQuantity ?? p.quantity,
            legendIds: m?.legendIds ?? p.legendIds,
            consideration: m ? m.consideration : p.consideration,
          },
          comments,
        ),
      ];
    },
  },
  import: {
    objects: {
      TX_STOCK_ISSUANCE: {
        keeps: [
          ...ISSUANCE_FIELDS,
          'stock_class_id',
          'share_price',
          'quantity',
          'stock_legend_ids',
          'consideration_text',
        ],
        read(l, ctx) {
          const o = l.object;
          const quantity = ctx.quantity(l, 'quantity', o.quantity);
          if (!quantity) return false;
          const shareholdingId = ctx.newId();
          const ok = ctx.record(l, {
            type: 'TX_STOCK_ISSUANCE',
            effectiveDate: String(o.date),
            payload: {
              shareholdingId,
              securityId: ctx.classes.get(String(o.stock_class_id))!,
              memberId: ctx.members.get(String(o.stakeholder_id))!.memberId,
              quantity,
              pricePerShare: ctx.note(o, 'pricePerShare') === null ? null : amount(o.share_price),
              issueDate: String(o.date),
              legendIds: arr(o.stock_legend_ids).map((id) => ctx.legends.get(String(id))!),
              consideration: str(o.consideration_text) ?? null,
            },
          });
          if (ok)
            ctx.issued(l, String(o.security_id), { kind: 'shareholding', id: shareholdingId });
          return ok;
        },
      },
    },
  },
};
