import { randomUUID } from 'node:crypto';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { DomainError } from '../../common';
import type { IncentivePayloads, PlanRecord } from '../ledger/incentive-types';
import type { PlanState, PoolState } from '../ledger/ledger-state';

type StepType =
  | 'STOCK_PLAN_UPDATED'
  | 'TX_STOCK_PLAN_POOL_ADJUSTMENT'
  | 'STOCK_PLAN_POOL_CREATED'
  | 'STOCK_PLAN_POOL_UPDATED'
  | 'STOCK_PLAN_POOL_DELETED';

/** One transaction of a plan's PUT. */
export type PlanStep = { [T in StepType]: { type: T; payload: IncentivePayloads[T] } }[StepType];

/** The plan a PUT asks for: canonical quantities, defaults filled. */
export interface WantedPlan {
  fields: Pick<
    PlanRecord,
    'name' | 'boardApprovalDate' | 'stockholderApprovalDate' | 'defaultCancellationBehavior'
  >;
  sharesReserved: string;
  pools: { id?: string; name: string; sharesReserved: string }[];
}

/**
 * The transactions that turn the plan into the wanted one, in an order that keeps the ledger's
 * invariants (pools ≤ plan ≤ the class's unissued shares) true after every step, so a PUT is
 * refused only when its end state breaks them: pools are deleted and shrunk first, then the
 * plan's reservation moves (up or down), then pools grow and new ones are created. Nothing when
 * nothing changes. A pool id that is not one of the plan's live pools → 404.
 */
export function planSteps(
  plan: PlanState,
  pools: PoolState[],
  wanted: WantedPlan,
  newId: () => string = randomUUID,
): PlanStep[] {
  const live = new Map(
    pools.filter((x) => x.planId === plan.id && !x.deleted).map((x) => [x.id, x]),
  );
  const listed = new Set<string>();
  for (const [i, x] of wanted.pools.entries()) {
    if (x.id === undefined) continue;
    if (listed.has(x.id)) {
      throw DomainError.badRequest(`pools[${i}].id lists pool ${x.id} twice`, {
        body: { field: `pools[${i}].id` },
      });
    }
    if (!live.has(x.id)) throw DomainError.notFound(`no pool ${x.id} in plan ${plan.name}`);
    listed.add(x.id);
  }

  const steps: PlanStep[] = [];
  const changes = Object.fromEntries(
    Object.entries(wanted.fields).filter(([k, v]) => plan[k as keyof typeof wanted.fields] !== v),
  );
  if (Object.keys(changes).length) {
    steps.push({ type: 'STOCK_PLAN_UPDATED', payload: { planId: plan.id, changes } });
  }
  for (const x of live.values()) {
    if (!listed.has(x.id))
      steps.push({ type: 'STOCK_PLAN_POOL_DELETED', payload: { poolId: x.id } });
  }
  const grows: PlanStep[] = [];
  for (const x of wanted.pools) {
    if (x.id === undefined) continue;
    const current = live.get(x.id)!;
    const next = toDecimal(x.sharesReserved);
    const poolChanges: { name?: string; sharesReserved?: string } = {};
    if (x.name !== current.name) poolChanges.name = x.name;
    if (!next.eq(current.sharesReserved)) poolChanges.sharesReserved = toDecimalString(next);
    if (!Object.keys(poolChanges).length) continue;
    const step: PlanStep = {
      type: 'STOCK_PLAN_POOL_UPDATED',
      payload: { poolId: x.id, changes: poolChanges },
    };
    (next.gt(current.sharesReserved) ? grows : steps).push(step);
  }
  if (!toDecimal(wanted.sharesReserved).eq(plan.sharesReserved)) {
    steps.push({
      type: 'TX_STOCK_PLAN_POOL_ADJUSTMENT',
      payload: {
        planId: plan.id,
        previousSharesReserved: toDecimalString(plan.sharesReserved),
        sharesReserved: wanted.sharesReserved,
      },
    });
  }
  steps.push(...grows);
  for (const x of wanted.pools) {
    if (x.id !== undefined) continue;
    steps.push({
      type: 'STOCK_PLAN_POOL_CREATED',
      payload: {
        pool: { id: newId(), planId: plan.id, name: x.name, sharesReserved: x.sharesReserved },
      },
    });
  }
  return steps;
}
