import { Injectable } from '@nestjs/common';
import { AccessContext } from '../../common';
import {
  createdPlanOf,
  createStockPlan,
  type CreatePlanInput,
} from '../ledger/commands/create-stock-plan';
import { replaceStockPlan, type ReplacePlanInput } from '../ledger/commands/replace-stock-plan';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { PlanFieldsInput } from './plan-changes';
import { CreatePlanDto, NewPoolDto, ReplacePlanDto } from './plan.dto';
import { PlanView } from './plan.view';

/**
 * Stock plans and their pools, changed through the ledger: a plan reserves shares of its class
 * (out of the class's unissued balance), its pools split that reservation. A plan with its pools
 * and a plan's PUT are commands of several transactions (`ledger/commands/`), a pool added and a
 * plan deleted their transaction's; their rules and events are there. What is left here is the
 * answer.
 */
@Injectable()
export class PlansService {
  constructor(private readonly ledger: LedgerWriter) {}

  async create(access: AccessContext, dto: CreatePlanDto): Promise<PlanView> {
    const input: CreatePlanInput = {
      ...planFieldsOf(dto),
      securityId: dto.security,
      sharesReserved: dto.sharesReserved,
      pools: dto.pools,
    };
    const { answer } = await this.ledger.run(createStockPlan, input, access, (run) =>
      run.view('plans', createdPlanOf(run)),
    );
    return answer as PlanView;
  }

  /**
   * The whole plan: its fields, its reservation and its pools (listed with id: kept and updated;
   * without: created; left out: deleted). See planSteps for the order of the transactions.
   */
  async replace(access: AccessContext, id: string, dto: ReplacePlanDto): Promise<PlanView> {
    const input: ReplacePlanInput = {
      ...planFieldsOf(dto),
      planId: id,
      securityId: dto.security,
      sharesReserved: dto.sharesReserved,
      pools: dto.pools,
    };
    const { answer } = await this.ledger.run(replaceStockPlan, input, access, (run) =>
      run.view('plans', id),
    );
    return answer as PlanView;
  }

  /**
   * One new pool (`POST /v1/plan/:plan/pool`): what a PUT listing the plan as it is plus this
   * pool does, the same STOCK_PLAN_POOL_CREATED under the same rules and event.
   */
  async addPool(access: AccessContext, id: string, dto: NewPoolDto): Promise<PlanView> {
    const input = { planId: id, name: dto.name, sharesReserved: dto.sharesReserved };
    const { answer } = await this.ledger.execute('STOCK_PLAN_POOL_CREATED', input, access, (o) =>
      o.view('plans', id),
    );
    return answer as PlanView;
  }

  /** STOCK_PLAN_DELETED: refused (409) while grants are outstanding; releases the reservation. */
  async remove(access: AccessContext, id: string): Promise<void> {
    await this.ledger.execute('STOCK_PLAN_DELETED', { planId: id }, access);
  }
}

const planFieldsOf = (dto: CreatePlanDto | ReplacePlanDto): PlanFieldsInput => ({
  name: dto.name,
  boardApprovalDate: dto.boardApprovalDate,
  stockholderApprovalDate: dto.stockholderApprovalDate,
  defaultCancellationBehavior: dto.defaultCancellationBehavior,
});
