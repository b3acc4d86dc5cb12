import {
  assertIssuable,
  assertLegends,
  assertLiveClass,
  addShareholding,
  issue,
  positive,
  security,
} from '../rules';
import type { TransactionDefinition } from './definition';
import { stockIssuanceOcf } from './stock-issuance.ocf';

/** OCF TX_STOCK_ISSUANCE: a new certificate out of the class's unissued shares. */
export const stockIssuance: TransactionDefinition<'TX_STOCK_ISSUANCE'> = {
  definesRecord: false,
  ocf: stockIssuanceOcf,
  refers: { createdShareholding: ['shareholdingId'], members: [['memberId']] },
  scope: (p) => ({ securities: [p.securityId], legends: p.legendIds }),
  validate(state, p) {
    const s = security(state, p.securityId);
    const quantity = positive(p.quantity, 'quantity');
    assertLiveClass(s);
    assertLegends(state, p.legendIds);
    assertIssuable(s, quantity);
  },
  apply(state, p, strict) {
    const s = security(state, p.securityId);
    const quantity = positive(p.quantity, 'quantity');
    issue(state, s, quantity, strict);
    addShareholding(state, s, {
      id: p.shareholdingId,
      memberId: p.memberId,
      securityId: p.securityId,
      quantity,
      pricePerShare: p.pricePerShare,
      issueDate: p.issueDate,
      legendIds: p.legendIds,
      consideration: p.consideration,
    });
  },
};
