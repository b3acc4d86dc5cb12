import {
  planFields,
  planSteps,
  planToChange,
  planUpdated,
  type PlanFieldsInput,
  type PlanStep,
} from '../../plans/plan-changes';
import type { PlanView } from '../../plans/plan.view';
import type { LedgerCommand, Step } from '../command';
import { commandQuantity } from '../command-values';
import { LedgerRuleError } from '../ledger-state';

/**
 * The whole plan as a PUT gives it (`PUT /v1/plan/:plan`): its pools listed with id are kept and
 * updated, without one created, left out deleted.
 */
export interface ReplacePlanInput extends PlanFieldsInput {
  planId: string;
  /** When given, the plan's own class: the class of a plan cannot change. */
  securityId?: string;
  sharesReserved: string;
  pools: { id?: string; name: string; sharesReserved: string }[];
}

/**
 * A plan's PUT: the transactions of `planSteps` (the plan's fields, its pools deleted, shrunk,
 * its reservation moved, its pools grown and created), dated today; one `plan.updated`, none
 * when nothing changes.
 */
export const replaceStockPlan: LedgerCommand<ReplacePlanInput> = {
  name: 'replaceStockPlan',
  scope: (input) => ({ plans: [input.planId] }),
  prepare(state, input, context) {
    const wanted = {
      fields: planFields(input),
      sharesReserved: commandQuantity(input.sharesReserved, 'sharesReserved', context),
      pools: input.pools.map((x, i) => ({
        id: x.id,
        name: x.name,
        sharesReserved: commandQuantity(x.sharesReserved, `pools[${i}].sharesReserved`, context),
      })),
    };
    const plan = planToChange(state, input.planId);
    if (input.securityId !== undefined && input.securityId !== plan.securityId) {
      throw new LedgerRuleError(
        'invalid',
        'security: the class of a plan cannot change',
        'security',
      );
    }
    return planSteps(plan, [...state.pools.values()], wanted).map(
      (step) => ({ ...step, effectiveDate: context.today }) as Step,
    );
  },
  event: {
    type: 'plan.updated',
    public: false,
    audience: 'canViewOrganization',
    before: (input) => [{ kind: 'plans', id: input.planId }],
    async describe(run, input) {
      return planUpdated(
        run.before('plans', input.planId) as PlanView,
        (await run.view('plans', input.planId)) as PlanView,
        run.steps as readonly PlanStep[],
      );
    },
  },
};
