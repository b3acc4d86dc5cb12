import { Body, Controller, Delete, Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  Access,
  AccessContext,
  ApiKeyedErrors,
  CACHED_LIST_HEADERS,
  CachedList,
  EMPTY_OBJECT,
  ListResponder,
  Permission,
} from '../../common';
import { Idempotent } from '../../idempotency';
import { CreatePlanDto, NewPoolDto, ReplacePlanDto } from './plan.dto';
import { PLAN_LIST, PlanReadsService } from './plan-reads.service';
import { PlanDashboard, PlanView, PoolListItem } from './plan.view';
import { PlansService } from './plans.service';

const INSUFFICIENT =
  '`insufficientShares`: the plan reserves more than its class has unissued (authorized − issued − ' +
  'reserved by other plans), or its pools reserve more than the plan';

@ApiTags('cap table')
@Controller('v1/organization/:organization/plan')
export class OrganizationPlansController {
  constructor(
    private readonly plans: PlansService,
    private readonly reads: PlanReadsService,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @Permission('canEditCapTable', { bodyRecords: { security: 'security' } })
  @ApiOperation({
    summary: 'Create a stock plan with its pools (OCF StockPlan)',
    description:
      'One database transaction: a plan-created transaction, then one pool-created transaction per ' +
      'pool, dated by boardApprovalDate (else today). `pools` may be empty or left out (pools can be ' +
      'added by a PUT). defaultCancellationBehavior defaults to return_to_pool. Fractional quantities ' +
      `only for an LLC. ${INSUFFICIENT}. A class of another organization → 404. Event plan.created.`,
  })
  @ApiCreatedResponse({ description: 'The plan with its pools', type: PlanView })
  @ApiKeyedErrors('insufficientShares')
  create(@Access() access: AccessContext, @Body() dto: CreatePlanDto) {
    return this.plans.create(access, dto);
  }

  @Get()
  @Permission('canViewOrganization')
  @CachedList(PLAN_LIST)
  @ApiOperation({
    summary: 'The stock plans of the organization, oldest first',
    description: 'With an `ETag`; `If-None-Match` answers 304 while nothing changed.',
  })
  @ApiOkResponse({
    description: 'The plans with their pools',
    type: [PlanView],
    headers: CACHED_LIST_HEADERS,
  })
  @ApiResponse({ status: 304, description: '`If-None-Match` named the current `ETag`: no body' })
  list(@Access() access: AccessContext, @Req() req: Request, @Res() res: Response) {
    return this.lists.send(req, res, access, PLAN_LIST, async () =>
      JSON.stringify(await this.reads.list(access.organizationId!)),
    );
  }
}

@ApiTags('cap table')
@Controller('v1/plan/:plan')
export class PlanController {
  constructor(
    private readonly plans: PlansService,
    private readonly reads: PlanReadsService,
  ) {}

  @Get()
  @Permission('canViewOrganization', { record: 'plan' })
  @ApiOperation({
    summary: 'One stock plan',
    description:
      'The spec names no permission; the least that fits a read is canViewOrganization in the plan’s organization.',
  })
  @ApiOkResponse({ description: 'The plan with its pools', type: PlanView })
  get(@Access() access: AccessContext, @Param('plan') id: string) {
    return this.reads.get(access.organizationId!, id);
  }

  @Put()
  @Idempotent()
  @Permission('canEditPlan', { record: 'plan' })
  @ApiOperation({
    summary: 'Replace a stock plan and its pools',
    description:
      'The whole plan: omitted dates are cleared and an omitted defaultCancellationBehavior is ' +
      'return_to_pool. `security` cannot change (400 when it differs). `pools`: with an id, one of ' +
      'this plan’s pools, updated (another id → 404); without, a new pool; the plan’s pools left out ' +
      'are deleted (409 when anything was granted from them). Pools are deleted and shrunk first, ' +
      'then the plan’s reservation moves, then pools grow and are created, so only an end state ' +
      `that breaks the invariants is refused. A pool below what was granted from it → 400 ${INSUFFICIENT}. ` +
      'A PUT that changes nothing records nothing. Event plan.updated with the previous attributes.',
  })
  @ApiOkResponse({ description: 'The plan as it now stands', type: PlanView })
  @ApiKeyedErrors('insufficientShares')
  @ApiConflictResponse({ description: 'A pool left out has grants' })
  replace(@Access() access: AccessContext, @Param('plan') id: string, @Body() dto: ReplacePlanDto) {
    return this.plans.replace(access, id, dto);
  }

  @Post('pool')
  @Idempotent()
  @Permission('canEditPlan', { record: 'plan' })
  @ApiOperation({
    summary: 'Add a pool to a stock plan',
    description:
      'The pool a PUT of the plan would create when listed without an id (the same ' +
      'pool-created transaction, dated today): the plan’s other fields and pools stay as they ' +
      `are. Fractional quantities only for an LLC. A pool beyond the plan’s unallocated reservation → 400 ${INSUFFICIENT}. ` +
      'Answers the plan as PUT does, the new pool among its pools (ordered by creation). Event plan.updated with the previous attributes.',
  })
  @ApiCreatedResponse({
    description: 'The plan with its pools, the new one included',
    type: PlanView,
  })
  @ApiKeyedErrors('insufficientShares')
  addPool(@Access() access: AccessContext, @Param('plan') id: string, @Body() dto: NewPoolDto) {
    return this.plans.addPool(access, id, dto);
  }

  @Delete()
  @Permission('canEditPlan', { record: 'plan' })
  @ApiOperation({
    summary: 'Delete a stock plan without outstanding grants',
    description:
      'Its pools go with it and its reservation returns to the class’s unissued shares. Records ' +
      'the member count for billing (billing.member_count_changed) and plan.deleted.',
  })
  @ApiOkResponse({ description: '`{}`: the plan is gone (404 afterwards)', schema: EMPTY_OBJECT })
  @ApiConflictResponse({ description: 'The plan has outstanding grants' })
  async remove(@Access() access: AccessContext, @Param('plan') id: string): Promise<object> {
    await this.plans.remove(access, id);
    return {};
  }

  @Get('dashboard')
  @Permission('canViewOrganization', { record: 'plan' })
  @ApiOperation({
    summary: 'A stock plan’s figures today, in total and per pool',
    description:
      'granted counts everything ever granted; outstanding = granted − exercised − cancelled; ' +
      'available = reserved − granted + returned; vested = the vested and unexercised part of the ' +
      'outstanding grants today, unvested = outstanding − vested; retired = cancelled grants that ' +
      'left the plan. The spec names no permission; the least that fits a read is canViewOrganization.',
  })
  @ApiOkResponse({ description: 'The plan dashboard', type: PlanDashboard })
  dashboard(@Access() access: AccessContext, @Param('plan') id: string) {
    return this.reads.dashboard(access.organizationId!, id);
  }
}

@ApiTags('cap table')
@Controller('v1/captable/:organization')
export class OrganizationPoolsController {
  constructor(private readonly reads: PlanReadsService) {}

  @Get('pool')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The pools of the organization’s stock plans',
    description: 'Plan by plan (oldest first), each plan’s pools by creation, then name.',
  })
  @ApiOkResponse({ description: 'The pools', type: [PoolListItem] })
  pools(@Access() access: AccessContext) {
    return this.reads.poolList(access.organizationId!);
  }
}
