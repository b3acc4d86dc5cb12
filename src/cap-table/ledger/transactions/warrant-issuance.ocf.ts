import { amount, arr, obj, str } from '../../../../libs/ocf';
import { addHolding, holdingIssuanceExport } from './holding-issuance.ocf';
import { type OcfMapping, ISSUANCE_FIELDS } from './ocf-mapping';

/** A warrant exercised at will into a class (its triggers are not kept: only that class). */
export const warrantIssuanceOcf: OcfMapping<'TX_WARRANT_ISSUANCE'> = {
  export: holdingIssuanceExport,
  import: {
    objects: {
      TX_WARRANT_ISSUANCE: {
        keeps: [
          ...ISSUANCE_FIELDS,
          'quantity',
          'exercise_price',
          'exercise_triggers',
          'warrant_expiration_date',
        ],
        read(l, ctx) {
          const o = l.object;
          const quantity = ctx.quantity(l, 'quantity', o.quantity);
          if (!quantity) {
            if (o.quantity === undefined) ctx.problem(l, 'quantity', 'a warrant needs a quantity');
            return false;
          }
          const classRef = arr(o.exercise_triggers)
            .map((t) => str(obj(obj(t)?.conversion_right)?.converts_to_stock_class_id))
            .find((c) => c !== undefined);
          const securityId = classRef ? ctx.classes.get(classRef) : undefined;
          if (!securityId) {
            ctx.problem(
              l,
              'exercise_triggers',
              classRef
                ? `the stock class ${classRef} is not in the package`
                : 'a warrant needs the stock class it is exercised into',
            );
            return false;
          }
          ctx.warn(
            l,
            'exercise_triggers',
            'exercise triggers are not kept: only the class they convert to',
          );
          ctx.notes(o, 'holdingType');
          if (o.quantity_source === 'INSTRUMENT_FIXED') ctx.keep(o, 'quantity_source');
          // The export writes a purchase price of 0 for what it does not record (and says so).
          if (
            ctx.note(o, 'purchasePrice') !== undefined &&
            Number(amount(o.purchase_price)) === 0
          ) {
            ctx.keep(o, 'purchase_price');
          }
          return addHolding(ctx, l, 'TX_WARRANT_ISSUANCE', {
            id: ctx.newId(),
            memberId: ctx.members.get(String(o.stakeholder_id))!.memberId,
            type: 'warrant',
            planId: null,
            poolId: null,
            securityId,
            vestingScheduleId: null,
            terms: {
              quantity,
              exercisePrice: amount(o.exercise_price),
              grantDate: String(o.date),
              expirationDate: str(o.warrant_expiration_date) ?? null,
            },
          });
        },
      },
    },
  },
};
