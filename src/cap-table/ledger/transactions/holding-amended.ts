import { documentedHolding } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { HoldingAmendment } from '../incentive-types';
import { toDecimalString } from '../../../../libs/cap-math';
import { previousAttributes } from '../../../events';
import type { AmendHoldingDto } from '../../holdings/holding.dto';
import { show } from '../../holdings/holding-events';
import { amendedTerms, changedTerms } from '../../holdings/holding-fields';
import { holdingLabel, isGrantType } from '../incentive-types';
import { LedgerRuleError } from '../ledger-state';
import {
  assertActiveHolding,
  assertGrantSchedule,
  assertInterestTermsKept,
  assertSchedule,
} from '../incentives/holding-rules';
import { available } from '../incentives/plan-reservation';
import { holding, pool } from '../incentives/lookups';
import { positive } from '../rules';
import type { TransactionDefinition } from './definition';
import { holdingAmendedOcf } from './holding-amended.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const holdingAmendedPayload = Type.Object({ holdingId: Id(), changes: HoldingAmendment });

declare module '../transaction-types' {
  interface TransactionPayloads {
    HOLDING_AMENDED: Static<typeof holdingAmendedPayload>;
  }
}

/** A PUT (`replace`) or PATCH of a holding's editable terms, as a caller asks for it. */
export interface AmendHoldingInput {
  holdingId: string;
  replace: boolean;
  fields: AmendHoldingDto;
}

/**
 * A correction of a grant, warrant or convertible: its terms or vesting. A grant's quantity
 * moves with its pool and never below what was exercised or cancelled; a note's principal is
 * fixed once it was repaid in part.
 */
export const holdingAmended: TransactionDefinition<'HOLDING_AMENDED'> = {
  payload: holdingAmendedPayload,
  definesRecord: false,
  ocf: holdingAmendedOcf,
  refers: { members: [['changes', 'memberId']], amends: ['holdingId'] },
  scope: (p) => ({
    holdings: [p.holdingId],
    schedules: p.changes.vestingScheduleId ? [p.changes.vestingScheduleId] : [],
  }),
  command: {
    scope: (input: AmendHoldingInput) => ({
      holdings: [input.holdingId],
      schedules: input.fields.vestingSchedule ? [input.fields.vestingSchedule] : [],
    }),
    prepare(state, { holdingId, replace, fields }: AmendHoldingInput, context) {
      const h = state.holdings.get(holdingId);
      if (!h) throw new LedgerRuleError('notFound', 'no such holding');
      assertActiveHolding(h);
      const changes: HoldingAmendment = {};
      const terms = changedTerms(h.terms, amendedTerms(h, fields, replace, context));
      if (Object.keys(terms).length) changes.terms = terms;
      if (isGrantType(h.type)) {
        const schedule = replace
          ? (fields.vestingSchedule ?? null)
          : fields.vestingSchedule === undefined
            ? h.vestingScheduleId
            : fields.vestingSchedule;
        if (schedule !== h.vestingScheduleId) changes.vestingScheduleId = schedule;
      }
      if (!Object.keys(changes).length) return null;
      return { effectiveDate: context.today, payload: { holdingId, changes } };
    },
  },
  event: {
    type: 'holding.updated',
    public: true,
    audience: 'canViewHolding',
    object: documentedHolding,
    before: (p) => [{ kind: 'holdings', id: p.holdingId }],
    async describe(facts) {
      const id = facts.payload.holdingId;
      // The holding views (a type's own fields, the holder and the times).
      const before = facts.before('holdings', id) as Record<string, unknown>;
      const after = (await facts.view('holdings', id)) as Record<string, unknown>;
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      const described = Object.keys(previous).map(
        (k) => `${k} ${show(before[k])} -> ${show(after[k])}`,
      );
      return {
        object: after,
        previous,
        subjects: [after.member as string],
        description: `${holdingLabel(facts.state.holdings.get(id)!.type)} ${id}: ${described.join('; ')}`,
      };
    },
  },
  validate(state, { holdingId, changes }) {
    const h = holding(state, holdingId);
    assertActiveHolding(h);
    const terms = changes.terms ?? {};
    const schedule =
      changes.vestingScheduleId === undefined ? h.vestingScheduleId : changes.vestingScheduleId;
    if (
      isGrantType(h.type) &&
      (changes.vestingScheduleId !== undefined || terms.quantity || terms.vestingStartDate)
    ) {
      assertGrantSchedule(state, schedule, h.planId, { ...h.terms, ...terms });
    }
    if (changes.vestingScheduleId !== undefined) assertSchedule(state, changes.vestingScheduleId);
    assertInterestTermsKept(h, terms);
    if (terms.quantity !== undefined && h.quantity) {
      const quantity = positive(terms.quantity, 'quantity');
      const used = h.exercised.plus(h.cancelled);
      if (quantity.lt(used)) {
        throw new LedgerRuleError(
          'insufficientShares',
          `${toDecimalString(used)} of it were exercised or cancelled: the quantity cannot be less`,
        );
      }
      if (h.poolId) {
        const po = pool(state, h.poolId);
        const delta = quantity.minus(h.quantity);
        if (delta.gt(available(po))) {
          throw new LedgerRuleError(
            'insufficientShares',
            `pool ${po.name} has ${toDecimalString(available(po))} shares available, less than ${toDecimalString(delta)} more`,
          );
        }
      }
    }
    if (terms.principal !== undefined && h.principalOutstanding) {
      positive(terms.principal, 'principal');
    }
  },
  apply(state, { holdingId, changes }) {
    const h = holding(state, holdingId);
    if (changes.vestingScheduleId !== undefined) h.vestingScheduleId = changes.vestingScheduleId;
    const terms = changes.terms ?? {};
    if (terms.quantity !== undefined && h.quantity) {
      const quantity = positive(terms.quantity, 'quantity');
      if (h.poolId) {
        const po = pool(state, h.poolId);
        po.granted = po.granted.plus(quantity.minus(h.quantity));
        state.put('pools', po);
      }
      h.quantity = quantity;
    }
    if (terms.principal !== undefined && h.principalOutstanding) {
      h.principalOutstanding = positive(terms.principal, 'principal');
    }
    if (terms.issueDate !== undefined && h.type === 'convertible_note') {
      h.accruedThrough = terms.issueDate;
    }
    h.terms = { ...h.terms, ...terms };
    state.put('holdings', h);
  },
};
