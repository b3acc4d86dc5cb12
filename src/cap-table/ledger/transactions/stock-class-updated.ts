import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { SecurityChanges } from '../transaction-types';
import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { obj } from '../../../../libs/ocf';
import { liveSecurity, security } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT, TX_FIELDS } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockClassUpdatedPayload = Type.Object({ securityId: Id(), changes: SecurityChanges });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_CLASS_UPDATED: Static<typeof stockClassUpdatedPayload>;
  }
}

/** New fields of a class (its replacement, with its authorized shares: commands/replace-security.ts). */
export const stockClassUpdated: TransactionDefinition<'STOCK_CLASS_UPDATED'> = {
  payload: stockClassUpdatedPayload,
  definesRecord: true,
  ocf: {
    ...WRITTEN_AS_OBJECT,
    // A class's new conversion ratio: OCF records it as a transaction.
    import: {
      objects: {
        TX_STOCK_CLASS_CONVERSION_RATIO_ADJUSTMENT: {
          keeps: [...TX_FIELDS, 'stock_class_id', 'new_ratio_conversion_mechanism'],
          read(l, ctx) {
            const o = l.object;
            const mechanism = obj(o.new_ratio_conversion_mechanism);
            const pair = obj(mechanism?.ratio);
            if (!pair) return 'unsupported';
            return ctx.record(l, {
              type: 'STOCK_CLASS_UPDATED',
              effectiveDate: String(o.date),
              payload: {
                securityId: ctx.classes.get(String(o.stock_class_id))!,
                changes: {
                  conversionRatio: toDecimalString(
                    toDecimal(String(pair.numerator)).div(toDecimal(String(pair.denominator))),
                  ),
                },
              },
            });
          },
        },
      },
    },
  },
  scope: (p) => ({ securities: [p.securityId] }),
  validate(state, { securityId }) {
    liveSecurity(state, securityId);
  },
  apply(state, { securityId, changes }) {
    state.put('securities', Object.assign(security(state, securityId), changes));
  },
};
