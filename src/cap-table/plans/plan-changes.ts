import { randomUUID } from 'node:crypto';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { previousAttributes } from '../../events';
import type { CancellationBehavior, PlanRecord } from '../ledger/incentive-types';
import type { TransactionPayloads } from '../ledger/transaction-types';
import { LedgerRuleError, LedgerState, PlanState, PoolState } from '../ledger/ledger-state';
import type { DescribedEvent } from '../ledger/transactions/definition';
import type { PlanView } from './plan.view';

type StepType =
  | 'STOCK_PLAN_UPDATED'
  | 'TX_STOCK_PLAN_POOL_ADJUSTMENT'
  | 'STOCK_PLAN_POOL_CREATED'
  | 'STOCK_PLAN_POOL_UPDATED'
  | 'STOCK_PLAN_POOL_DELETED';

/** One transaction of a plan's PUT. */
export type PlanStep = { [T in StepType]: { type: T; payload: TransactionPayloads[T] } }[StepType];

/** A plan's own fields as a caller gives them (a POST or PUT body); left out: the defaults. */
export interface PlanFieldsInput {
  name: string;
  boardApprovalDate?: string | null;
  stockholderApprovalDate?: string | null;
  defaultCancellationBehavior?: CancellationBehavior | null;
}

/** The plan's own fields as the log records them; left out means none (dates) or the default. */
export const planFields = (input: PlanFieldsInput): WantedPlan['fields'] => ({
  name: input.name,
  boardApprovalDate: input.boardApprovalDate ?? null,
  stockholderApprovalDate: input.stockholderApprovalDate ?? null,
  defaultCancellationBehavior: input.defaultCancellationBehavior ?? 'return_to_pool',
});

/** The live plan a change names, else 404 (a deleted plan is gone for its routes). */
export function planToChange(state: LedgerState, id: string): PlanState {
  const plan = state.plans.get(id);
  if (!plan || plan.deleted) throw new LedgerRuleError('notFound', 'no such plan');
  return plan;
}

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
      throw new LedgerRuleError(
        'invalid',
        `pools[${i}].id lists pool ${x.id} twice`,
        `pools[${i}].id`,
      );
    }
    if (!live.has(x.id)) {
      throw new LedgerRuleError('notFound', `no pool ${x.id} in plan ${plan.name}`);
    }
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

/**
 * The plan.updated event of steps that changed the plan (a PUT, a pool added): the plan as it now
 * stands, what it was of the fields that changed, and what the steps did, in words.
 */
export function planUpdated(
  before: PlanView,
  after: PlanView,
  steps: readonly PlanStep[],
): DescribedEvent {
  return {
    object: after,
    previous: previousAttributes(before, { ...after, updated: before.updated }),
    description: `plan ${before.name}: ${describeSteps(steps, before).join('; ')}`,
  };
}

/** What the steps did, in words, for the activity log. */
function describeSteps(steps: readonly PlanStep[], before: PlanView): string[] {
  const poolName = (id: string) => before.pools.find((x) => x.id === id)?.name ?? id;
  return steps.flatMap((s): string[] => {
    switch (s.type) {
      case 'STOCK_PLAN_UPDATED':
        return Object.entries(s.payload.changes).map(
          ([k, v]) => `${k} ${before[k as keyof PlanView] ?? 'none'} -> ${v ?? 'none'}`,
        );
      case 'TX_STOCK_PLAN_POOL_ADJUSTMENT':
        return [
          `sharesReserved ${s.payload.previousSharesReserved} -> ${s.payload.sharesReserved}`,
        ];
      case 'STOCK_PLAN_POOL_DELETED':
        return [`pool ${poolName(s.payload.poolId)} deleted`];
      case 'STOCK_PLAN_POOL_CREATED':
        return [`pool ${s.payload.pool.name} created (${s.payload.pool.sharesReserved})`];
      case 'STOCK_PLAN_POOL_UPDATED': {
        const was = before.pools.find((x) => x.id === s.payload.poolId);
        const { name, sharesReserved } = s.payload.changes;
        return [
          ...(name !== undefined ? [`pool ${was?.name} name -> ${name}`] : []),
          ...(sharesReserved !== undefined
            ? [
                `pool ${name ?? was?.name} sharesReserved ${was?.sharesReserved} -> ${sharesReserved}`,
              ]
            : []),
        ];
      }
    }
  });
}
