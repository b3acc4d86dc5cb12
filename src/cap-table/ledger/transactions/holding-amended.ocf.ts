import { type OcfMapping, SECURITY_TX_FIELDS } from './ocf-mapping';

/**
 * The export folds a correction into the holding's issuance (see holding-issuance.ocf.ts). The
 * import reads a grant's later TX_VESTING_START as one: its first is the grant's vestingStartDate.
 */
export const holdingAmendedOcf: OcfMapping<'HOLDING_AMENDED'> = {
  export: { from: 'replayed' },
  import: {
    objects: {
      TX_VESTING_START: {
        keeps: [...SECURITY_TX_FIELDS, 'vesting_condition_id'],
        read(l, ctx) {
          const security = String(l.object.security_id);
          if (ctx.issuedBy.get(security)?.object.object_type === 'TX_STOCK_ISSUANCE') {
            ctx.warn(l, '', 'vesting of shares has no counterpart: TX_VESTING_START not imported');
            return 'unsupported';
          }
          // The first one is the grant's vestingStartDate (it may come before the grant's date).
          if (ctx.vestingStarts.get(security) === l) return true;
          const holdingId = ctx.target(l, 'holding');
          if (!holdingId) return false;
          return ctx.record(l, {
            type: 'HOLDING_AMENDED',
            effectiveDate: String(l.object.date),
            payload: { holdingId, changes: { terms: { vestingStartDate: String(l.object.date) } } },
          });
        },
      },
    },
  },
};
