import { assertActive, assertLegends, positive, resize, shareholding } from '../rules';
import type { TransactionDefinition } from './definition';

/** A correction of an issuance: what it should have said (a quantity change renumbers at the top). */
export const stockIssuanceAmended: TransactionDefinition<'STOCK_ISSUANCE_AMENDED'> = {
  definesRecord: false,
  refers: { amends: ['shareholdingId'] },
  // Folded into the issuance it corrects (see stock-issuance.ocf.ts).
  ocf: { export: { from: 'row' } },
  scope: (p) => ({ shareholdings: [p.shareholdingId], legends: p.changes.legendIds ?? [] }),
  validate(state, { shareholdingId, changes }) {
    assertActive(shareholding(state, shareholdingId));
    if (changes.legendIds) assertLegends(state, changes.legendIds);
  },
  apply(state, { shareholdingId, changes }, strict) {
    const h = shareholding(state, shareholdingId);
    if (changes.quantity !== undefined) {
      resize(state, h, positive(changes.quantity, 'quantity'), strict);
    }
    const { quantity: _quantity, ...rest } = changes;
    state.put('shareholdings', Object.assign(h, rest));
  },
};
