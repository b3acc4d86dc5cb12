import { Type, type Static } from '@sinclair/typebox';
import { HoldingRecord } from '../incentive-types';
import { toDecimalString } from '../../../../libs/cap-math';
import { LedgerRuleError } from '../ledger-state';
import { addHolding, assertGrantSchedule, assertSchedule } from '../incentives/holding-rules';
import { available } from '../incentives/plan-reservation';
import { livePlan, pool } from '../incentives/lookups';
import { positive } from '../rules';
import type { TransactionDefinition } from './definition';
import { equityCompensationIssuanceOcf } from './equity-compensation-issuance.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const grantIssuancePayload = Type.Object({ holding: HoldingRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_EQUITY_COMPENSATION_ISSUANCE: Static<typeof grantIssuancePayload>;
  }
}

/** OCF TX_EQUITY_COMPENSATION_ISSUANCE: a grant out of a pool's available shares. */
export const equityCompensationIssuance: TransactionDefinition<'TX_EQUITY_COMPENSATION_ISSUANCE'> =
  {
    payload: grantIssuancePayload,
    definesRecord: false,
    ocf: equityCompensationIssuanceOcf,
    refers: { members: [['holding', 'memberId']] },
    scope: (p) => ({
      pools: p.holding.poolId ? [p.holding.poolId] : [],
      schedules: p.holding.vestingScheduleId ? [p.holding.vestingScheduleId] : [],
    }),
    validate(state, { holding: record }) {
      const pl = livePlan(state, record.planId ?? '', true);
      const po = pool(state, record.poolId ?? '');
      if (po.deleted || po.planId !== pl.id) {
        throw new LedgerRuleError('notFound', `pool ${po.id} is not a pool of plan ${pl.name}`);
      }
      assertGrantSchedule(state, record.vestingScheduleId, pl.id, record.terms);
      assertSchedule(state, record.vestingScheduleId);
      const quantity = positive(record.terms.quantity ?? '', 'quantity');
      if (quantity.gt(available(po))) {
        throw new LedgerRuleError(
          'insufficientShares',
          `pool ${po.name} has ${toDecimalString(available(po))} shares available, less than ${toDecimalString(quantity)}`,
        );
      }
      if (state.holdings.has(record.id)) {
        throw new LedgerRuleError('conflict', `holding ${record.id} exists`);
      }
    },
    apply(state, { holding: record }, strict) {
      const po = pool(state, record.poolId ?? '');
      const quantity = positive(record.terms.quantity ?? '', 'quantity');
      po.granted = po.granted.plus(quantity);
      state.put('pools', po);
      addHolding(state, record, quantity, strict);
    },
  };
