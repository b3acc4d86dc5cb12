import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { Clock, defineList, DomainError } from '../../common';
import { livePools } from '../position/position';
import { PositionReader } from '../position/position-reader';
import { planDashboard } from './plan-dashboard';
import { Plan } from './plan.entity';
import {
  byCreation,
  PlanDashboard,
  PlanView,
  PoolListItem,
  toPlanView,
  toPoolListItem,
} from './plan.view';
import { Pool } from './pool.entity';

/** The plan list as cached: the same for every reader. */
export const PLAN_LIST = defineList({
  list: 'plan',
  tables: ['stock_plan', 'stock_plan_pool'],
  audience: () => 'all',
});

/** Reads of plans and pools: plain reads of the tables the ledger keeps. */
@Injectable()
export class PlanReadsService {
  constructor(
    @InjectRepository(Plan) private readonly plans: Repository<Plan>,
    @InjectRepository(Pool) private readonly pools: Repository<Pool>,
    private readonly positions: PositionReader,
    private readonly clock: Clock,
  ) {}

  /** The organization's plans, oldest first. */
  async list(organizationId: string): Promise<PlanView[]> {
    const plans = await this.livePlans(organizationId);
    const pools = await this.livePools(organizationId, plans);
    return plans.map((p) => toPlanView(p, pools));
  }

  async get(organizationId: string, id: string): Promise<PlanView> {
    const plan = await this.plan(organizationId, id);
    return toPlanView(plan, await this.livePools(organizationId, [plan]));
  }

  /** The pools of the organization's plans, plan by plan (oldest first). */
  async poolList(organizationId: string): Promise<PoolListItem[]> {
    const plans = await this.livePlans(organizationId);
    const pools = (await this.livePools(organizationId, plans)).sort(byCreation);
    return plans.flatMap((p) =>
      pools.filter((x) => x.planId === p.id).map((x) => toPoolListItem(p, x)),
    );
  }

  /** The plan's figures today (the position of today), with the vesting of its active grants. */
  async dashboard(organizationId: string, id: string): Promise<PlanDashboard> {
    const position = await this.positions.positionAsOf(organizationId, this.clock.today());
    const plan = position.state.plans.get(id);
    if (!plan || plan.deleted) throw DomainError.notFound('no such plan');
    // In the order the plan's view lists them.
    const order = (await this.livePools(organizationId, [plan])).sort(byCreation).map((p) => p.id);
    const pools = livePools(position, id).sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    return planDashboard(position, plan, pools);
  }

  private async plan(organizationId: string, id: string): Promise<Plan> {
    const plan = await this.plans.findOneBy({ organizationId, id, deletedAt: IsNull() });
    if (!plan) throw DomainError.notFound('no such plan');
    return plan;
  }

  private livePlans(organizationId: string): Promise<Plan[]> {
    return this.plans.find({
      where: { organizationId, deletedAt: IsNull() },
      order: { created: 'ASC', id: 'ASC' },
    });
  }

  private async livePools(organizationId: string, plans: { id: string }[]): Promise<Pool[]> {
    if (!plans.length) return [];
    return this.pools.findBy({
      organizationId,
      planId: In(plans.map((p) => p.id)),
      deletedAt: IsNull(),
    });
  }
}
