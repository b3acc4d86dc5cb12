import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { AccessContext, DomainError } from '../../common';
import { OrganizationsDirectory } from '../../organizations';
import {
  replacementOf,
  replaceVestingTerms,
  type ReplaceTermsInput,
} from '../ledger/commands/replace-vesting-terms';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { DeleteTermsInput } from '../ledger/transactions/vesting-terms-deleted';
import { Plan } from '../plans/plan.entity';
import { ListVestingSchedulesQuery, VestingScheduleDto } from './vesting-schedule.dto';
import { VestingScheduleEntity } from './vesting-schedule.entity';
import { toVestingScheduleView, VestingScheduleView } from './vesting-schedule.view';
import type { VestingTermsInput } from './vesting-terms';

/**
 * Vesting schedules (OCF VestingTerms) through the log. A schedule is never edited in place: a
 * PUT stores a new version under a new id and marks the old one superseded, so a grant keeps
 * vesting by the version it was made with. Deleting is refused (409, by the reducer) while an
 * active grant uses the schedule. The writes are the ledger's commands (VESTING_TERMS_CREATED's,
 * `replaceVestingTerms`, VESTING_TERMS_DELETED's), which hold their rules and events.
 */
@Injectable()
export class VestingSchedulesService {
  constructor(
    @InjectRepository(VestingScheduleEntity)
    private readonly schedules: Repository<VestingScheduleEntity>,
    @InjectRepository(Plan) private readonly plans: Repository<Plan>,
    private readonly ledger: LedgerWriter,
    private readonly organizations: OrganizationsDirectory,
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
    const { answer } = await this.ledger.execute(
      'VESTING_TERMS_CREATED',
      termsOf(dto),
      access,
      (o) => o.view('schedules', o.payload!.vestingSchedule.id),
    );
    return answer as VestingScheduleView;
  }

  /** Stores the body as the next version of the schedule; the old version stays for its grants. */
  async replace(
    access: AccessContext,
    id: string,
    dto: VestingScheduleDto,
  ): Promise<VestingScheduleView> {
    const input: ReplaceTermsInput = { vestingScheduleId: id, terms: termsOf(dto) };
    const { answer } = await this.ledger.run(replaceVestingTerms, input, access, (run) =>
      run.view('schedules', replacementOf(run)),
    );
    return answer as VestingScheduleView;
  }

  /**
   * Deletes a schedule of the plan or of the whole organization (404 for any other, so a plan
   * cannot reach another plan's schedules); 409 while an active grant uses it.
   */
  async remove(access: AccessContext, planId: string, id: string): Promise<void> {
    const input: DeleteTermsInput = { vestingScheduleId: id, planId };
    await this.ledger.execute('VESTING_TERMS_DELETED', input, access);
  }
}

/** The body's terms as the ledger's commands take them. */
const termsOf = (dto: VestingScheduleDto): VestingTermsInput => ({
  name: dto.name,
  planId: dto.plan,
  totalPeriods: dto.totalPeriods,
  periodLength: dto.periodLength,
  periodType: dto.periodType,
  cliffPeriods: dto.cliffPeriods,
  allocationType: dto.allocationType,
  vestingDayOfMonth: dto.vestingDayOfMonth,
  acceleration: dto.acceleration,
});
