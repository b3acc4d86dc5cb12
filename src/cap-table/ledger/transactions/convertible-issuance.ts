import { Type, type Static } from '@sinclair/typebox';
import { HoldingRecord } from '../incentive-types';
import { LedgerRuleError } from '../ledger-state';
import { addHolding } from '../incentives/holding-rules';
import { positive } from '../rules';
import type { TransactionDefinition } from './definition';
import { convertibleIssuanceOcf } from './convertible-issuance.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const convertibleIssuancePayload = Type.Object({ holding: HoldingRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_CONVERTIBLE_ISSUANCE: Static<typeof convertibleIssuancePayload>;
  }
}

/** OCF TX_CONVERTIBLE_ISSUANCE: a convertible note or a SAFE. */
export const convertibleIssuance: TransactionDefinition<'TX_CONVERTIBLE_ISSUANCE'> = {
  payload: convertibleIssuancePayload,
  definesRecord: false,
  ocf: convertibleIssuanceOcf,
  refers: { members: [['holding', 'memberId']] },
  scope: () => ({}),
  validate(state, { holding: record }) {
    if (record.type === 'convertible_note') positive(record.terms.principal ?? '', 'principal');
    if (state.holdings.has(record.id)) {
      throw new LedgerRuleError('conflict', `holding ${record.id} exists`);
    }
  },
  apply(state, { holding: record }, strict) {
    addHolding(state, record, null, strict);
  },
};
