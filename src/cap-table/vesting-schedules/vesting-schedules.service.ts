import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { toDecimalString, toDecimal, validateSchedule } from '../../../libs/cap-math';
import { AccessContext, Clock, DomainError } from '../../common';
import { previousAttributes } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import type { VestingScheduleRecord } from '../ledger/incentive-types';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { VestingScheduleState } from '../ledger/ledger-state';
import { Plan } from '../plans/plan.entity';
import { withScheduleErrors } from './schedule-errors';
import { ListVestingSchedulesQuery, VestingScheduleDto } from './vesting-schedule.dto';
import { VestingScheduleEntity } from './vesting-schedule.entity';
import {
  toScheduleTerms,
  toVestingScheduleView,
  VestingScheduleView,
} from './vesting-schedule.view';
import { changeEvent } from '../change-event';

/** What the log gives each version: its own id, its number and the version it replaces. */
type Identity = 'id' | 'version' | 'previousVersionId';

/** The terms an update event describes when they change. */
const DESCRIBED = [
  'name',
  'plan',
  'totalPeriods',
  'periodLength',
  'periodType',
  'cliffPeriods',
  'allocationType',
  'vestingDayOfMonth',
  'acceleration',
] as const;

/**
 * Vesting schedules (OCF VestingTerms) through the log. A schedule is never edited in place: a
 * PUT stores a new version under a new id and marks the old one superseded, so a grant keeps
 * vesting by the version it was made with. Deleting is refused (409, by the reducer) while an
 * active grant uses the schedule.
 */
@Injectable()
export class VestingSchedulesService {
  constructor(
    @InjectRepository(VestingScheduleEntity)
    private readonly schedules: Repository<VestingScheduleEntity>,
    @InjectRepository(Plan) private readonly plans: Repository<Plan>,
    private readonly ledger: LedgerWriter,
    private readonly organizations: OrganizationsDirectory,
    private readonly clock: Clock,
  ) {}

  async get(organizationId: string, id: string): Promise<VestingScheduleView> {
    const row = await this.schedules.findOneBy({ id, organizationId, deletedAt: IsNull() });
    if (!row) throw DomainError.notFound('no such vesting schedule');
    return toVestingScheduleView(row);
  }

  /** `GET /v1/vestingSchedule?organization=`: one organization's (the guard decided). */
  list(organizationId: string, q: ListVestingSchedulesQuery): Promise<VestingScheduleView[]> {
    return this.listOf([organizationId], q, 'plan is not a plan of this organization');
  }

  /**
   * `GET /v1/vestingSchedule` without an organization: the schedules of every organization in
   * which the caller's active role has `canViewOrganization`, and of no other.
   */
  async listVisible(userId: string, q: ListVestingSchedulesQuery): Promise<VestingScheduleView[]> {
    const organizationIds = await this.organizations.organizationsPermitting(
      userId,
      'canViewOrganization',
    );
    return this.listOf(organizationIds, q, 'plan is not a plan of an organization you can view');
  }

  private async listOf(
    organizationIds: string[],
    q: ListVestingSchedulesQuery,
    noSuchPlan: string,
  ): Promise<VestingScheduleView[]> {
    const organizationId = In(organizationIds);
    if (q.plan) {
      const plan = organizationIds.length
        ? await this.plans.findOneBy({ id: q.plan, organizationId, deletedAt: IsNull() })
        : null;
      if (!plan) throw DomainError.notFound(noSuchPlan);
    }
    if (!organizationIds.length) return [];
    const rows = await this.schedules.find({
      where: {
        organizationId,
        deletedAt: IsNull(),
        ...(q.plan ? { planId: q.plan } : {}),
        ...(q.versions === 'all' ? {} : { supersededById: IsNull() }),
      },
      order: { created: 'ASC', id: 'ASC' },
      skip: q.offset ?? 0,
      take: q.limit ?? 100,
    });
    return rows.map(toVestingScheduleView);
  }

  async create(access: AccessContext, dto: VestingScheduleDto): Promise<VestingScheduleView> {
    const record = { ...this.fields(dto), id: randomUUID(), version: 1, previousVersionId: null };
    return this.ledger.change(access.organizationId!, access.userId, {}, async (c) => {
      await c.apply('VESTING_TERMS_CREATED', this.clock.today(), { vestingSchedule: record });
      const view = await this.read(c, record.id);
      await c.record(
        changeEvent(
          'vesting_schedule.created',
          access,
          view,
          `vesting schedule ${view.name}: created (${terms(view)})`,
        ),
      );
      return view;
    });
  }

  /** Stores the body as the next version of the schedule; the old version stays for its grants. */
  async replace(
    access: AccessContext,
    id: string,
    dto: VestingScheduleDto,
  ): Promise<VestingScheduleView> {
    const fields = this.fields(dto);
    const scope = { scheduleToChange: id };
    return this.ledger.change(access.organizationId!, access.userId, scope, async (c) => {
      const old = this.current(c, id);
      const record: VestingScheduleRecord = {
        ...fields,
        id: randomUUID(),
        version: old.version + 1,
        previousVersionId: old.id,
      };
      const before = await this.read(c, id);
      // The reducer refuses (409) a version that was already superseded.
      await c.apply('VESTING_TERMS_CREATED', this.clock.today(), { vestingSchedule: record });
      const after = await this.read(c, record.id);
      const previous = previousAttributes(before, { ...after, created: before.created });
      const changed = DESCRIBED.filter((k) => k in previous).map(
        (k) => `${k} ${show(before[k])} -> ${show(after[k])}`,
      );
      await c.record(
        changeEvent(
          'vesting_schedule.updated',
          access,
          after,
          `vesting schedule ${after.name}: version ${after.version} replaces version ${before.version}` +
            (changed.length ? ` (${changed.join('; ')})` : ' (same terms)'),
          previous,
        ),
      );
      return after;
    });
  }

  /**
   * Deletes a schedule of the plan or of the whole organization (404 for any other, so a plan
   * cannot reach another plan's schedules); 409 while an active grant uses it.
   */
  async remove(access: AccessContext, planId: string, id: string): Promise<void> {
    const scope = { scheduleToChange: id };
    await this.ledger.change(access.organizationId!, access.userId, scope, async (c) => {
      const v = this.current(c, id);
      if (v.planId !== null && v.planId !== planId) {
        throw DomainError.notFound('the vesting schedule is not one of this plan');
      }
      const view = await this.read(c, id);
      await c.apply('VESTING_TERMS_DELETED', this.clock.today(), { vestingScheduleId: id });
      await c.record(
        changeEvent(
          'vesting_schedule.deleted',
          access,
          view,
          `vesting schedule ${view.name} (version ${view.version}): deleted`,
        ),
      );
    });
  }

  /** The fields of the log's record, once cap-math has accepted the terms (400 naming the field). */
  private fields(dto: VestingScheduleDto): Omit<VestingScheduleRecord, Identity> {
    const acceleration = dto.acceleration
      ? {
          trigger: dto.acceleration.trigger,
          percent: toDecimalString(toDecimal(dto.acceleration.percent)),
        }
      : null;
    const fields = {
      name: dto.name,
      planId: dto.plan ?? null,
      totalPeriods: dto.totalPeriods,
      periodLength: dto.periodLength,
      periodType: dto.periodType,
      cliffPeriods: dto.cliffPeriods,
      allocationType: dto.allocationType,
      vestingDayOfMonth: dto.vestingDayOfMonth ?? null,
      acceleration,
    };
    withScheduleErrors(() => validateSchedule(toScheduleTerms(fields)));
    return fields;
  }

  private current(c: LedgerChange, id: string): VestingScheduleState {
    const v = c.state.schedules.get(id);
    if (!v || v.deleted) throw DomainError.notFound('no such vesting schedule');
    return v;
  }

  /** As the change wrote it (no read back), else as the table holds it. */
  private async read(c: LedgerChange, id: string): Promise<VestingScheduleView> {
    return toVestingScheduleView(await c.current(VestingScheduleEntity, id));
  }
}

/** `48 × 1 months, 12-period cliff, CUMULATIVE_ROUNDING` for the activity log. */
const terms = (v: VestingScheduleView) =>
  `${v.totalPeriods} × ${v.periodLength} ${v.periodType}, ` +
  `${v.cliffPeriods ? `${v.cliffPeriods}-period cliff` : 'no cliff'}, ${v.allocationType}` +
  (v.acceleration
    ? `, ${v.acceleration.trigger}-trigger acceleration ${v.acceleration.percent}%`
    : '');

const show = (v: VestingScheduleView[(typeof DESCRIBED)[number]]) =>
  v === null ? 'none' : typeof v === 'object' ? `${v.trigger}-trigger ${v.percent}%` : String(v);
