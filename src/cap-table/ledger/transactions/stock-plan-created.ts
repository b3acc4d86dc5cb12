import { Type, type Static } from '@sinclair/typebox';
import { PlanRecord } from '../incentive-types';
import { assertLiveClass, security, ZERO } from '../rules';
import { assertReservable, nonNegative, reserve } from '../incentives/plan-reservation';
import type { TransactionDefinition } from './definition';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockPlanCreatedPayload = Type.Object({ plan: PlanRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_PLAN_CREATED: Static<typeof stockPlanCreatedPayload>;
  }
}

/** A stock plan reserves shares of its class out of the unissued balance. */
export const stockPlanCreated: TransactionDefinition<'STOCK_PLAN_CREATED'> = {
  payload: stockPlanCreatedPayload,
  // A plan recorded today may describe grants made long ago (records migrated in).
  definesRecord: true,
  // Written as an object once the log is read; with the shares reserved as created.
  ocf: {
    export: {
      from: 'replayed',
      map(_row, { plan }, ctx) {
        ctx.initialReserved.set(plan.id, plan.sharesReserved);
        return [];
      },
    },
  },
  scope: (p) => ({ securities: [p.plan.securityId] }),
  validate(state, { plan }) {
    const s = security(state, plan.securityId);
    assertLiveClass(s);
    assertReservable(s, nonNegative(plan.sharesReserved, 'sharesReserved'));
  },
  apply(state, { plan }, strict) {
    const s = security(state, plan.securityId);
    const reserved = nonNegative(plan.sharesReserved, 'sharesReserved');
    reserve(state, s, reserved, strict);
    state.put('plans', {
      ...plan,
      sharesReserved: reserved,
      exercised: ZERO,
      retired: ZERO,
      deleted: false,
    });
  },
};
