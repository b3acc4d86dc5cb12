import { toDecimal } from '../../../../libs/cap-math';
import { type TransactionDefinition, noRules } from './definition';

/** A share class (OCF StockClass). */
export const stockClassCreated: TransactionDefinition<'STOCK_CLASS_CREATED'> = {
  definesRecord: true,
  // Written as an object once the log is read; with the shares authorized as created.
  ocf: {
    export: {
      from: 'replayed',
      map(_row, { security }, ctx) {
        ctx.initialAuthorized.set(security.id, security.authorizedShares);
        return [];
      },
    },
  },
  scope: () => ({}),
  validate: noRules,
  apply(state, { security }) {
    const { authorizedShares, ...rest } = security;
    state.put('securities', {
      ...rest,
      authorized: toDecimal(authorizedShares),
      issued: toDecimal(0),
      reserved: toDecimal(0),
      deleted: false,
      nextCertificateNumber: 1,
      nextShareNumber: toDecimal(1),
    });
  },
  // Classes logged before the field existed are not participating.
  upgrade: (p) => ({
    security: { ...p.security, participating: p.security.participating ?? false },
  }),
};
