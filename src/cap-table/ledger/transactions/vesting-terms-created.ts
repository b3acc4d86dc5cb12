import { Type, type Static } from '@sinclair/typebox';
import { VestingScheduleRecord } from '../incentive-types';
import { randomUUID } from 'node:crypto';
import {
  assertComputable,
  termsCreated,
  termsRecord,
  type VestingTermsInput,
} from '../../vesting-schedules/vesting-terms';
import type { VestingScheduleView } from '../../vesting-schedules/vesting-schedule.view';
import { LedgerRuleError } from '../ledger-state';
import { schedule } from '../incentives/lookups';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const vestingTermsCreatedPayload = Type.Object({ vestingSchedule: VestingScheduleRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    VESTING_TERMS_CREATED: Static<typeof vestingTermsCreatedPayload>;
  }
}

/**
 * Vesting terms, or a new version of them (a PUT) that supersedes the latest one. Its command is
 * a new schedule's (version 1); a new version is the command `replaceVestingTerms`.
 */
export const vestingTermsCreated: TransactionDefinition<'VESTING_TERMS_CREATED'> = {
  payload: vestingTermsCreatedPayload,
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) =>
    p.vestingSchedule.previousVersionId
      ? { scheduleToChange: p.vestingSchedule.previousVersionId }
      : {},
  validate(state, { vestingSchedule: v }) {
    assertComputable(v);
    if (!v.previousVersionId) return;
    const previous = schedule(state, v.previousVersionId);
    if (previous.supersededById || previous.deleted) {
      throw new LedgerRuleError(
        'conflict',
        `vesting schedule ${previous.name} version ${previous.version} is not the latest version`,
      );
    }
  },
  command: {
    scope: () => ({}),
    prepare: (_state, input: VestingTermsInput, context) => ({
      effectiveDate: context.today,
      payload: {
        vestingSchedule: {
          ...termsRecord(input),
          id: randomUUID(),
          version: 1,
          previousVersionId: null,
        },
      },
    }),
  },
  event: {
    type: 'vesting_schedule.created',
    public: false,
    audience: 'canViewOrganization',
    async describe(facts) {
      const id = facts.payload.vestingSchedule.id;
      return termsCreated((await facts.view('schedules', id)) as VestingScheduleView);
    },
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
