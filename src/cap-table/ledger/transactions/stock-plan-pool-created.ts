import { Type, type Static } from '@sinclair/typebox';
import { PoolRecord } from '../incentive-types';
import { randomUUID } from 'node:crypto';
import { planToChange, planUpdated } from '../../plans/plan-changes';
import type { PlanView } from '../../plans/plan.view';
import { commandQuantity } from '../command-values';
import { assertPoolsFit, nonNegative } from '../incentives/plan-reservation';
import { livePlan, poolsOf } from '../incentives/lookups';
import { ZERO } from '../rules';
import type { TransactionDefinition } from './definition';
import { WRITTEN_AS_OBJECT } from './ocf-mapping';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const poolCreatedPayload = Type.Object({ pool: PoolRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_PLAN_POOL_CREATED: Static<typeof poolCreatedPayload>;
  }
}

/** One new pool of a plan (`POST /v1/plan/:plan/pool`). */
export interface NewPoolInput {
  planId: string;
  name: string;
  sharesReserved: string;
}

/** A pool of a plan: the pools together reserve no more than the plan. */
export const stockPlanPoolCreated: TransactionDefinition<'STOCK_PLAN_POOL_CREATED'> = {
  payload: poolCreatedPayload,
  definesRecord: true,
  ocf: WRITTEN_AS_OBJECT,
  scope: (p) => ({ plans: [p.pool.planId] }),
  validate(state, { pool }) {
    const pl = livePlan(state, pool.planId, true);
    assertPoolsFit(
      pl,
      poolsOf(state, pl.id),
      nonNegative(pool.sharesReserved, 'sharesReserved'),
      true,
    );
  },
  // What a PUT listing the plan as it is plus this pool does: the same transaction and event.
  command: {
    scope: (input: NewPoolInput) => ({ plans: [input.planId] }),
    prepare(state, input: NewPoolInput, context) {
      const sharesReserved = commandQuantity(input.sharesReserved, 'sharesReserved', context);
      planToChange(state, input.planId);
      return {
        effectiveDate: context.today,
        payload: {
          pool: { id: randomUUID(), planId: input.planId, name: input.name, sharesReserved },
        },
      };
    },
  },
  event: {
    type: 'plan.updated',
    public: false,
    audience: 'canViewOrganization',
    before: (p) => [{ kind: 'plans', id: p.pool.planId }],
    async describe(facts) {
      const id = facts.payload.pool.planId;
      return planUpdated(
        facts.before('plans', id) as PlanView,
        (await facts.view('plans', id)) as PlanView,
        [{ type: 'STOCK_PLAN_POOL_CREATED', payload: facts.payload }],
      );
    },
  },
  apply(state, { pool }, strict) {
    const pl = livePlan(state, pool.planId, strict);
    state.put('pools', {
      ...pool,
      sharesReserved: nonNegative(pool.sharesReserved, 'sharesReserved'),
      granted: ZERO,
      exercised: ZERO,
      cancelled: ZERO,
      returned: ZERO,
      deleted: false,
    });
    // A plan changes with its pools (its `updated`).
    state.put('plans', pl);
  },
};
