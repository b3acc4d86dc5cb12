import { LedgerRuleError } from '../ledger-state';
import { schedule } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** Vesting terms, or a new version of them (a PUT) that supersedes the latest one. */
export const vestingTermsCreated: TransactionDefinition<'VESTING_TERMS_CREATED'> = {
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) =>
    p.vestingSchedule.previousVersionId
      ? { scheduleToChange: p.vestingSchedule.previousVersionId }
      : {},
  validate(state, { vestingSchedule: v }) {
    if (!v.previousVersionId) return;
    const previous = schedule(state, v.previousVersionId);
    if (previous.supersededById || previous.deleted) {
      throw new LedgerRuleError(
        'conflict',
        `vesting schedule ${previous.name} version ${previous.version} is not the latest version`,
      );
    }
  },
  apply(state, { vestingSchedule: v }) {
    if (v.previousVersionId) {
      const previous = schedule(state, v.previousVersionId);
      previous.supersededById = v.id;
      state.put('schedules', previous);
    }
    state.put('schedules', { ...v, supersededById: null, deleted: false });
  },
};
