import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccessContext, Clock, DomainError } from '../../common';
import { previousAttributes } from '../../events';
import type { PlanRecord, PoolRecord } from '../ledger/incentive-types';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { PlanState } from '../ledger/ledger-state';
import { quantity } from '../quantities';
import { PlanStep, planSteps, WantedPlan } from './plan-changes';
import { CreatePlanDto, NewPoolDto, ReplacePlanDto } from './plan.dto';
import { Plan } from './plan.entity';
import { PlanView, toPlanView } from './plan.view';
import { Pool } from './pool.entity';

/**
 * Stock plans and their pools, changed through the ledger: a plan reserves shares of its class
 * (out of the class's unissued balance), its pools split that reservation, and every change is
 * one database transaction of log entries checked by the reducer under the plan's and class's
 * locks.
 */
@Injectable()
export class PlansService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly clock: Clock,
  ) {}

  /** STOCK_PLAN_CREATED, then one STOCK_PLAN_POOL_CREATED per pool, dated by the board approval. */
  async create(access: AccessContext, dto: CreatePlanDto): Promise<PlanView> {
    const organization = access.organization!;
    const record: PlanRecord = {
      id: randomUUID(),
      securityId: dto.security,
      sharesReserved: quantity(dto.sharesReserved, 'sharesReserved', organization),
      ...fields(dto),
    };
    const pools: PoolRecord[] = (dto.pools ?? []).map((x, i) => ({
      id: randomUUID(),
      planId: record.id,
      name: x.name,
      sharesReserved: quantity(x.sharesReserved, `pools[${i}].sharesReserved`, organization),
    }));
    const scope = { securities: [dto.security] };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const security = c.state.securities.get(dto.security);
      if (!security || security.deleted) throw DomainError.notFound('no such class');
      const date = record.boardApprovalDate ?? this.clock.today();
      await c.apply('STOCK_PLAN_CREATED', date, { plan: record });
      for (const pool of pools) await c.apply('STOCK_PLAN_POOL_CREATED', date, { pool });
      const view = await this.read(c, record.id);
      await c.record({
        type: 'plan.created',
        organizationId: organization.id,
        actorUserId: access.userId,
        object: view,
        description:
          `plan ${view.name}: created with ${view.sharesReserved} shares of ${security.name} reserved` +
          (view.pools.length
            ? `, pools ${view.pools.map((x) => `${x.name} (${x.sharesReserved})`).join(', ')}`
            : ', no pools'),
      });
      return view;
    });
  }

  /**
   * The whole plan: its fields, its reservation and its pools (listed with id: kept and updated;
   * without: created; left out: deleted). See planSteps for the order of the transactions.
   */
  async replace(access: AccessContext, id: string, dto: ReplacePlanDto): Promise<PlanView> {
    const organization = access.organization!;
    const wanted: WantedPlan = {
      fields: fields(dto),
      sharesReserved: quantity(dto.sharesReserved, 'sharesReserved', organization),
      pools: dto.pools.map((x, i) => ({
        id: x.id,
        name: x.name,
        sharesReserved: quantity(x.sharesReserved, `pools[${i}].sharesReserved`, organization),
      })),
    };
    return this.ledger.change(organization.id, access.userId, { plans: [id] }, async (c) => {
      const plan = this.current(c, id);
      if (dto.security !== undefined && dto.security !== plan.securityId) {
        throw DomainError.badRequest('security: the class of a plan cannot change', {
          body: { field: 'security' },
        });
      }
      return this.applySteps(access, c, id, planSteps(plan, [...c.state.pools.values()], wanted));
    });
  }

  /**
   * One new pool (`POST /v1/plan/:plan/pool`): what a PUT listing the plan as it is plus this
   * pool does, the same STOCK_PLAN_POOL_CREATED under the same rules and event.
   */
  async addPool(access: AccessContext, id: string, dto: NewPoolDto): Promise<PlanView> {
    const organization = access.organization!;
    const pool = {
      name: dto.name,
      sharesReserved: quantity(dto.sharesReserved, 'sharesReserved', organization),
    };
    return this.ledger.change(organization.id, access.userId, { plans: [id] }, async (c) => {
      this.current(c, id);
      return this.applySteps(access, c, id, [
        {
          type: 'STOCK_PLAN_POOL_CREATED',
          payload: { pool: { id: randomUUID(), planId: id, ...pool } },
        },
      ]);
    });
  }

  /** STOCK_PLAN_DELETED: refused (409) while grants are outstanding; releases the reservation. */
  async remove(access: AccessContext, id: string): Promise<void> {
    const organizationId = access.organizationId!;
    await this.ledger.change(organizationId, access.userId, { plans: [id] }, async (c) => {
      this.current(c, id);
      const view = await this.read(c, id);
      await c.apply('STOCK_PLAN_DELETED', this.clock.today(), { planId: id });
      await c.record({
        type: 'plan.deleted',
        organizationId,
        actorUserId: access.userId,
        object: view,
        description: `plan ${view.name}: deleted, ${view.sharesReserved} reserved shares released`,
      });
    });
  }

  /** Applies a change's steps today and records plan.updated; nothing when there are none. */
  private async applySteps(
    access: AccessContext,
    c: LedgerChange,
    id: string,
    steps: PlanStep[],
  ): Promise<PlanView> {
    const before = await this.read(c, id);
    if (!steps.length) return before;
    const date = this.clock.today();
    for (const step of steps) await c.apply(step.type, date, step.payload);
    const after = await this.read(c, id);
    await c.record({
      type: 'plan.updated',
      organizationId: access.organizationId!,
      actorUserId: access.userId,
      object: after,
      previous: previousAttributes(before, { ...after, updated: before.updated }),
      description: `plan ${before.name}: ${describe(steps, before).join('; ')}`,
    });
    return after;
  }

  private current(c: LedgerChange, id: string): PlanState {
    const plan = c.state.plans.get(id);
    if (!plan || plan.deleted) throw DomainError.notFound('no such plan');
    return plan;
  }

  private async read(c: LedgerChange, id: string): Promise<PlanView> {
    const m = c.tx.manager;
    const plan = await m.getRepository(Plan).findOneByOrFail({ id });
    return toPlanView(plan, await m.getRepository(Pool).findBy({ planId: id }));
  }
}

/** The plan's own fields as the log records them; left out means none (dates) or the default. */
const fields = (dto: CreatePlanDto | ReplacePlanDto): WantedPlan['fields'] => ({
  name: dto.name,
  boardApprovalDate: dto.boardApprovalDate ?? null,
  stockholderApprovalDate: dto.stockholderApprovalDate ?? null,
  defaultCancellationBehavior: dto.defaultCancellationBehavior ?? 'return_to_pool',
});

/** What a PUT did, in words, for the activity log. */
function describe(steps: PlanStep[], before: PlanView): string[] {
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
