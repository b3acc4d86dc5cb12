import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, SelectQueryBuilder } from 'typeorm';
import { AccessContext, Clock, DomainError, PageQuery } from '../../common';
import { membersOfUserSql } from '../../organizations';
import { Holding } from '../holdings/holding.entity';
import { GRANT_TYPES } from '../ledger/incentive-types';
import { Pool } from '../plans/pool.entity';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { ExerciseRequest } from './exercise-request.entity';
import { OptionView, toOptionView } from './option.view';

/**
 * Reading options: the holdings of a grant type (ISO, NSO, plain option, RSU, SAR), with their
 * vesting as of today and their pending exercise requests. The guard has decided who may read;
 * lists are filtered here where the caller sees only their own.
 */
@Injectable()
export class OptionReadsService {
  constructor(
    @InjectRepository(Holding) private readonly holdings: Repository<Holding>,
    @InjectRepository(Pool) private readonly pools: Repository<Pool>,
    @InjectRepository(VestingScheduleEntity)
    private readonly schedules: Repository<VestingScheduleEntity>,
    @InjectRepository(ExerciseRequest) private readonly requests: Repository<ExerciseRequest>,
    private readonly clock: Clock,
  ) {}

  /** One option; with `plan`/`pool` (the deprecated route) it must be theirs, else 404. */
  async get(id: string, path?: { plan: string; pool: string }): Promise<OptionView> {
    const holding = await this.holdings.findOneBy({ id, type: In([...GRANT_TYPES]) });
    if (!holding || (path && (holding.planId !== path.plan || holding.poolId !== path.pool))) {
      throw DomainError.notFound('no such option');
    }
    return (await this.views([holding]))[0];
  }

  /** The options of a pool, oldest first; the pool must be the plan's (else 404). */
  async ofPool(
    organizationId: string,
    planId: string,
    poolId: string,
    page: PageQuery,
  ): Promise<OptionView[]> {
    const pool = await this.pools.findOneBy({ id: poolId, organizationId });
    if (!pool || pool.planId !== planId || pool.deletedAt) {
      throw DomainError.notFound('no such pool in this plan');
    }
    return this.list(this.grants(organizationId).andWhere('h.poolId = :poolId', { poolId }), page);
  }

  /**
   * The organization's options. A caller whose role lacks `canViewOption` (a Shareholder) sees
   * only the options of their own member records: the route itself needs only
   * `canViewOrganization`, so the role decides the scope here.
   */
  ofOrganization(access: AccessContext, page: PageQuery): Promise<OptionView[]> {
    const organizationId = access.organizationId!;
    const query = this.grants(organizationId);
    if (access.scope === 'self' || !access.permissions.has('canViewOption')) {
      query.andWhere(`h.memberId IN ${membersOfUserSql(':organizationId', ':userId')}`, {
        userId: access.userId,
      });
    }
    return this.list(query, page);
  }

  /** A member's options (the guard allowed `canViewMember` or the member themselves). */
  ofMember(organizationId: string, memberId: string, page: PageQuery): Promise<OptionView[]> {
    return this.list(
      this.grants(organizationId).andWhere('h.memberId = :memberId', { memberId }),
      page,
    );
  }

  private grants(organizationId: string): SelectQueryBuilder<Holding> {
    return this.holdings
      .createQueryBuilder('h')
      .where('h.organizationId = :organizationId', { organizationId })
      .andWhere('h.type IN (:...types)', { types: [...GRANT_TYPES] });
  }

  private async list(query: SelectQueryBuilder<Holding>, page: PageQuery) {
    const rows = await query
      .orderBy('h.created', 'ASC')
      .addOrderBy('h.id', 'ASC')
      .limit(page.limit ?? 100)
      .offset(page.offset ?? 0)
      .getMany();
    return this.views(rows);
  }

  /** Views of grants, their schedules and pending requests read in two queries for the lot. */
  private async views(rows: Holding[]): Promise<OptionView[]> {
    if (!rows.length) return [];
    const scheduleIds = [...new Set(rows.map((h) => h.vestingScheduleId).filter((id) => !!id))];
    // A grant keeps the schedule version it was made with, deleted or superseded since.
    const schedules = scheduleIds.length
      ? await this.schedules.findBy({ id: In(scheduleIds as string[]) })
      : [];
    const byId = new Map(schedules.map((v) => [v.id, v]));
    const pending = await this.requests.find({
      where: { holdingId: In(rows.map((h) => h.id)), status: 'pending' },
      order: { created: 'ASC', id: 'ASC' },
    });
    const now = this.clock.today();
    return rows.map((h) =>
      toOptionView(
        h,
        h.vestingScheduleId ? (byId.get(h.vestingScheduleId) ?? null) : null,
        pending.filter((r) => r.holdingId === h.id),
        now,
      ),
    );
  }
}
