import { documentedHolding } from '../transactions/definition';
import { randomUUID } from 'node:crypto';
import type { HoldingTermsDto } from '../../holdings/holding.dto';
import { sizeOf } from '../../holdings/holding-events';
import {
  assertApplicable,
  assertConsistent,
  assertRequired,
  termsFrom,
} from '../../holdings/holding-fields';
import type { HoldingView } from '../../holdings/holding.view';
import type { LedgerCommand, Step } from '../command';
import {
  holdingLabel,
  isGrantType,
  type HoldingRecord,
  type HoldingType,
} from '../incentive-types';

/** A grant, warrant, note or SAFE as a caller asks for it. */
export interface CreateHoldingInput {
  type: HoldingType;
  memberId: string;
  /** The holder's name, for the event's description (null: not found). */
  memberName: string | null;
  fields: HoldingTermsDto;
}

/**
 * Granting an option, RSU or SAR out of a plan's pool, or issuing a warrant, a convertible note
 * or a SAFE: the issuance transaction of its kind, and one event `holding.created`.
 */
export const holdingCreation: LedgerCommand<CreateHoldingInput> = {
  name: 'HOLDING_CREATION',
  scope({ type, fields }) {
    if (isGrantType(type)) {
      return {
        plans: fields.plan ? [fields.plan] : [],
        pools: fields.pool ? [fields.pool] : [],
        schedules: fields.vestingSchedule ? [fields.vestingSchedule] : [],
      };
    }
    return type === 'warrant' && fields.security ? { securities: [fields.security] } : {};
  },
  prepare(state, { type, memberId, fields }, context) {
    assertApplicable(type, fields);
    assertRequired(type, fields);
    const terms = termsFrom(type, fields, context);
    assertConsistent(type, terms);
    const grant = isGrantType(type);
    const holding: HoldingRecord = {
      id: randomUUID(),
      memberId,
      type,
      planId: grant ? fields.plan! : null,
      poolId: grant ? fields.pool! : null,
      // A grant becomes shares of its plan's class (no plan: the issuance's rules refuse it).
      securityId: grant
        ? (state.plans.get(fields.plan!)?.securityId ?? null)
        : type === 'warrant'
          ? fields.security!
          : null,
      vestingScheduleId: grant ? (fields.vestingSchedule ?? null) : null,
      terms,
    };
    const effectiveDate = (terms.grantDate ?? terms.issueDate)!;
    const step: Step = grant
      ? { type: 'TX_EQUITY_COMPENSATION_ISSUANCE', effectiveDate, payload: { holding } }
      : type === 'warrant'
        ? { type: 'TX_WARRANT_ISSUANCE', effectiveDate, payload: { holding } }
        : { type: 'TX_CONVERTIBLE_ISSUANCE', effectiveDate, payload: { holding } };
    return [step];
  },
  event: {
    type: 'holding.created',
    public: true,
    audience: 'canViewHolding',
    object: documentedHolding,
    async describe(run, { type, memberName }) {
      const { holding } = run.steps[0].payload as { holding: HoldingRecord };
      const view = (await run.view('holdings', holding.id)) as HoldingView;
      return {
        object: view,
        subjects: [view.member],
        description: `${holdingLabel(type)} of ${sizeOf(view)} to ${memberName ?? 'a member'}`,
      };
    },
  },
};
