import { randomUUID } from 'node:crypto';
import {
  termsRecord,
  termsReplaced,
  type VestingTermsInput,
} from '../../vesting-schedules/vesting-terms';
import type { VestingScheduleView } from '../../vesting-schedules/vesting-schedule.view';
import type { CommandRun, LedgerCommand } from '../command';
import { LedgerRuleError } from '../ledger-state';

/** `PUT /v1/vestingSchedule/:id`: the terms of the schedule's next version. */
export interface ReplaceTermsInput {
  vestingScheduleId: string;
  terms: VestingTermsInput;
}

/**
 * A new version of a schedule: VESTING_TERMS_CREATED under a new id, superseding the latest one
 * (the old version stays for the grants made with it). Its own command, not the type's, for its
 * event: `vesting_schedule.updated`, not `.created`.
 */
export const replaceVestingTerms: LedgerCommand<ReplaceTermsInput> = {
  name: 'replaceVestingTerms',
  scope: (input) => ({ scheduleToChange: input.vestingScheduleId }),
  prepare(state, { vestingScheduleId, terms }, context) {
    const old = state.schedules.get(vestingScheduleId);
    if (!old || old.deleted) throw new LedgerRuleError('notFound', 'no such vesting schedule');
    return [
      {
        type: 'VESTING_TERMS_CREATED',
        effectiveDate: context.today,
        payload: {
          vestingSchedule: {
            ...termsRecord(terms),
            id: randomUUID(),
            version: old.version + 1,
            previousVersionId: old.id,
          },
        },
      },
    ];
  },
  event: {
    type: 'vesting_schedule.updated',
    public: false,
    audience: 'canViewOrganization',
    before: (input) => [{ kind: 'schedules', id: input.vestingScheduleId }],
    async describe(run, input) {
      return termsReplaced(
        run.before('schedules', input.vestingScheduleId) as VestingScheduleView,
        (await run.view('schedules', replacementOf(run))) as VestingScheduleView,
      );
    },
  },
};

/** The id of the version the command wrote. */
export function replacementOf(run: Pick<CommandRun, 'steps'>): string {
  const [step] = run.steps;
  if (step?.type !== 'VESTING_TERMS_CREATED') throw new Error('no version was written');
  return step.payload.vestingSchedule.id;
}
