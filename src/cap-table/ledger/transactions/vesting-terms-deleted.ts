import { LedgerRuleError } from '../ledger-state';
import { schedule } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** Vesting terms no active grant uses. */
export const vestingTermsDeleted: TransactionDefinition<'VESTING_TERMS_DELETED'> = {
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ scheduleToChange: p.vestingScheduleId }),
  validate(state, { vestingScheduleId }) {
    const v = schedule(state, vestingScheduleId);
    const user = [...state.holdings.values()].find(
      (h) => h.status === 'active' && h.vestingScheduleId === vestingScheduleId,
    );
    if (user) {
      throw new LedgerRuleError(
        'conflict',
        `vesting schedule ${v.name} is used by an active ${user.type} grant`,
      );
    }
  },
  apply(state, { vestingScheduleId }) {
    const v = schedule(state, vestingScheduleId);
    v.deleted = true;
    state.put('schedules', v);
  },
};
