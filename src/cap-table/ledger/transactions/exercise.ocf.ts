import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import {
  arr,
  exerciseTriggerId,
  ledgerComment,
  numeric,
  str,
  withComments,
  type Located,
} from '../../../../libs/ocf';
import {
  SECURITY_TX_FIELDS,
  type OcfExportMapping,
  type OcfImportContext,
  type OcfMapping,
} from './ocf-mapping';
import { resultingIssuance } from './stock-issuance.ocf';

type ExerciseType = 'TX_EQUITY_COMPENSATION_EXERCISE' | 'TX_WARRANT_EXERCISE';

/** An exercise of a grant or warrant, and the stock issuance of the shareholding it creates. */
const exerciseExport: OcfExportMapping<ExerciseType> = {
  from: 'replayed',
  map(row, p, ctx) {
    const h = ctx.state.holdings.get(p.holdingId);
    const comments: string[] = [];
    if (p.requestId) comments.push(ledgerComment('requestId', p.requestId));
    if (p.paymentMethod) comments.push(ledgerComment('paymentMethod', p.paymentMethod));
    const exercise =
      row.type === 'TX_WARRANT_EXERCISE'
        ? {
            object_type: 'TX_WARRANT_EXERCISE',
            id: row.id,
            date: p.date,
            security_id: p.holdingId,
            trigger_id: exerciseTriggerId(p.holdingId),
            resulting_security_ids: [p.shareholdingId],
          }
        : {
            object_type: 'TX_EQUITY_COMPENSATION_EXERCISE',
            id: row.id,
            date: p.date,
            security_id: p.holdingId,
            quantity: numeric(p.quantity),
            resulting_security_ids: [p.shareholdingId],
          };
    if (row.type === 'TX_WARRANT_EXERCISE') comments.push(ledgerComment('quantity', p.quantity));
    return [
      withComments(exercise, comments),
      resultingIssuance(ctx, row, h?.memberId, {
        date: p.date,
        securityId: p.shareholdingId,
        classId: h?.securityId ?? row.made?.securityId ?? '',
        pricePerShare: h?.terms.exercisePrice ?? row.made?.pricePerShare ?? null,
        quantity: p.quantity,
        legendIds: p.legendIds,
        consideration: row.made?.consideration ?? 'exercise',
      }),
    ];
  },
};

/** The exercise into its one resulting stock issuance (of the class the holding exercises into). */
function exerciseImport(l: Located, ctx: OcfImportContext, type: ExerciseType): boolean {
  const o = l.object;
  const holdingId = ctx.target(l, 'holding');
  const result = ctx.oneResult(l);
  if (!holdingId || !result) return false;
  const h = ctx.state.holdings.get(holdingId)!;
  const shares = ctx.quantity(result, 'quantity', result.object.quantity);
  if (!shares) return false;
  if (o.quantity !== undefined && !toDecimal(String(o.quantity)).eq(toDecimal(shares))) {
    ctx.problem(l, 'quantity', `the resulting security holds ${shares}, not ${String(o.quantity)}`);
    return false;
  }
  if (ctx.classes.get(String(result.object.stock_class_id)) !== h.securityId) {
    ctx.problem(
      l,
      'resulting_security_ids',
      'the resulting security is not of the class the holding is exercised into',
    );
    return false;
  }
  const shareholdingId = ctx.newId();
  const ok = ctx.record(l, {
    type,
    effectiveDate: String(o.date),
    payload: {
      holdingId,
      requestId: null,
      quantity: shares,
      date: String(o.date),
      paymentMethod: ctx.note<string>(o, 'paymentMethod') ?? str(o.consideration_text) ?? null,
      shareholdingId,
      legendIds: arr(result.object.stock_legend_ids).map((id) => ctx.legends.get(String(id))!),
    },
  });
  if (!ok) return false;
  ctx.issued(result, String(result.object.security_id), {
    kind: 'shareholding',
    id: shareholdingId,
  });
  const left = h.quantity
    ? toDecimalString(h.quantity.minus(h.exercised).minus(h.cancelled))
    : null;
  ctx.balance(l, { kind: 'holding', id: holdingId }, left);
  return true;
}

/** The exercise of a grant or a warrant both ways (a warrant's names the trigger it is exercised through). */
export const exerciseOcf = <T extends ExerciseType>(
  type: T,
  alsoKeeps: string[] = [],
): OcfMapping<T> => ({
  export: exerciseExport,
  import: {
    objects: {
      [type]: {
        keeps: [
          ...SECURITY_TX_FIELDS,
          'resulting_security_ids',
          'quantity',
          'consideration_text',
          'balance_security_id',
          ...alsoKeeps,
        ],
        read: (l: Located, ctx: OcfImportContext) => exerciseImport(l, ctx, type),
      },
    },
  },
});
