import { randomUUID } from 'node:crypto';
import { planFields, type PlanFieldsInput } from '../../plans/plan-changes';
import type { PlanView } from '../../plans/plan.view';
import type { CommandRun, LedgerCommand, Step } from '../command';
import { commandQuantity } from '../command-values';
import type { PlanRecord } from '../incentive-types';
import { LedgerRuleError } from '../ledger-state';

/** A new plan as a caller asks for it (`POST /v1/organization/:organization/plan`). */
export interface CreatePlanInput extends PlanFieldsInput {
  securityId: string;
  sharesReserved: string;
  pools?: { name: string; sharesReserved: string }[];
}

/**
 * A stock plan with its pools: STOCK_PLAN_CREATED, then one STOCK_PLAN_POOL_CREATED per pool,
 * dated by the board approval (else today); one `plan.created`.
 */
export const createStockPlan: LedgerCommand<CreatePlanInput> = {
  name: 'createStockPlan',
  scope: (input) => ({ securities: [input.securityId] }),
  prepare(state, input, context) {
    const sharesReserved = commandQuantity(input.sharesReserved, 'sharesReserved', context);
    const pools = (input.pools ?? []).map((x, i) => ({
      name: x.name,
      sharesReserved: commandQuantity(x.sharesReserved, `pools[${i}].sharesReserved`, context),
    }));
    // A deleted class is gone for the API (404), as an unknown one.
    const security = state.securities.get(input.securityId);
    if (!security || security.deleted) throw new LedgerRuleError('notFound', 'no such class');
    const plan: PlanRecord = {
      id: randomUUID(),
      securityId: input.securityId,
      sharesReserved,
      ...planFields(input),
    };
    const effectiveDate = plan.boardApprovalDate ?? context.today;
    return [
      { type: 'STOCK_PLAN_CREATED', effectiveDate, payload: { plan } },
      ...pools.map((x): Step => ({
        type: 'STOCK_PLAN_POOL_CREATED',
        effectiveDate,
        payload: { pool: { id: randomUUID(), planId: plan.id, ...x } },
      })),
    ];
  },
  event: {
    type: 'plan.created',
    public: false,
    audience: 'canViewOrganization',
    async describe(run) {
      const view = (await run.view('plans', createdPlanOf(run))) as PlanView;
      const security = run.state.securities.get(view.security)!;
      return {
        object: view,
        description:
          `plan ${view.name}: created with ${view.sharesReserved} shares of ${security.name} reserved` +
          (view.pools.length
            ? `, pools ${view.pools.map((x) => `${x.name} (${x.sharesReserved})`).join(', ')}`
            : ', no pools'),
      };
    },
  },
};

/** The id of the plan the command created. */
export function createdPlanOf(run: Pick<CommandRun, 'steps'>): string {
  const [step] = run.steps;
  if (step?.type !== 'STOCK_PLAN_CREATED') throw new Error('no plan was created');
  return step.payload.plan.id;
}
