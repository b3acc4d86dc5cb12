import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { termsDeleted } from '../../vesting-schedules/vesting-terms';
import type { VestingScheduleView } from '../../vesting-schedules/vesting-schedule.view';
import { LedgerRuleError } from '../ledger-state';
import { schedule } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const vestingTermsDeletedPayload = Type.Object({ vestingScheduleId: Id() });

declare module '../transaction-types' {
  interface TransactionPayloads {
    VESTING_TERMS_DELETED: Static<typeof vestingTermsDeletedPayload>;
  }
}

/** A schedule to delete, through the plan the caller names (`DELETE /v1/plan/:plan/vestingSchedule/:id`). */
export interface DeleteTermsInput {
  vestingScheduleId: string;
  planId: string;
}

/** Vesting terms no active grant uses. */
export const vestingTermsDeleted: TransactionDefinition<'VESTING_TERMS_DELETED'> = {
  payload: vestingTermsDeletedPayload,
  definesRecord: false,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ scheduleToChange: p.vestingScheduleId }),
  validate(state, { vestingScheduleId }) {
    const v = schedule(state, vestingScheduleId);
    if (v.deleted) throw new LedgerRuleError('notFound', 'no such vesting schedule');
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
  command: {
    scope: (input: DeleteTermsInput) => ({ scheduleToChange: input.vestingScheduleId }),
    prepare(state, { vestingScheduleId, planId }: DeleteTermsInput, context) {
      const v = state.schedules.get(vestingScheduleId);
      if (!v || v.deleted) throw new LedgerRuleError('notFound', 'no such vesting schedule');
      // A plan reaches its own schedules and the organization's, no other plan's (404).
      if (v.planId !== null && v.planId !== planId) {
        throw new LedgerRuleError('notFound', 'the vesting schedule is not one of this plan');
      }
      return { effectiveDate: context.today, payload: { vestingScheduleId } };
    },
  },
  event: {
    type: 'vesting_schedule.deleted',
    public: false,
    audience: 'canViewOrganization',
    before: (p) => [{ kind: 'schedules', id: p.vestingScheduleId }],
    async describe(facts) {
      return termsDeleted(
        facts.before('schedules', facts.payload.vestingScheduleId) as VestingScheduleView,
      );
    },
  },
  apply(state, { vestingScheduleId }) {
    const v = schedule(state, vestingScheduleId);
    v.deleted = true;
    state.put('schedules', v);
  },
};
