import { Type, type Static } from '@sinclair/typebox';
import { HoldingRecord } from '../incentive-types';
import { LedgerRuleError } from '../ledger-state';
import { addHolding, assertSchedule } from '../incentives/holding-rules';
import { assertLiveClass, positive, security } from '../rules';
import type { TransactionDefinition } from './definition';
import { warrantIssuanceOcf } from './warrant-issuance.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const warrantIssuancePayload = Type.Object({ holding: HoldingRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_WARRANT_ISSUANCE: Static<typeof warrantIssuancePayload>;
  }
}

/** OCF TX_WARRANT_ISSUANCE: the right to buy shares of a class; nothing is issued yet. */
export const warrantIssuance: TransactionDefinition<'TX_WARRANT_ISSUANCE'> = {
  payload: warrantIssuancePayload,
  definesRecord: false,
  ocf: warrantIssuanceOcf,
  refers: { members: [['holding', 'memberId']] },
  scope: (p) => ({
    securities: p.holding.securityId ? [p.holding.securityId] : [],
    schedules: p.holding.vestingScheduleId ? [p.holding.vestingScheduleId] : [],
  }),
  validate(state, { holding: record }) {
    assertLiveClass(security(state, record.securityId ?? ''));
    assertSchedule(state, record.vestingScheduleId);
    positive(record.terms.quantity ?? '', 'quantity');
    if (state.holdings.has(record.id)) {
      throw new LedgerRuleError('conflict', `holding ${record.id} exists`);
    }
  },
  apply(state, { holding: record }, strict) {
    security(state, record.securityId ?? '');
    addHolding(state, record, positive(record.terms.quantity ?? '', 'quantity'), strict);
  },
};
