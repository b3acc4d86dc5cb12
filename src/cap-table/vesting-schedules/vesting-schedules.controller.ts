import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission, EMPTY_OBJECT } from '../../common';
import { Idempotent } from '../../idempotency';
import {
  ListVestingSchedulesQuery,
  ProjectVestingDto,
  VestingScheduleDto,
} from './vesting-schedule.dto';
import { VestingProjectionView, VestingScheduleView } from './vesting-schedule.view';
import { VestingProjectionService } from './vesting-projection.service';
import { VestingSchedulesService } from './vesting-schedules.service';

const TERMS =
  'Terms as OCF VestingTerms: `totalPeriods` tranches of `periodLength` days/months/years; the ' +
  'first `cliffPeriods` tranches vest together at the cliff; `allocationType` spreads a quantity ' +
  'that does not divide evenly (OCF’s seven values); `vestingDayOfMonth` (month and year periods) ' +
  'places each vesting date; `acceleration` {trigger: single|double, percent 0..100}. ' +
  '`totalPeriods` is at most 600 for months, 50 for years, 3,650 for days (400 above). A ' +
  'schedule cap-math refuses (e.g. a cliff longer than the schedule) → 400 `{error, message, field}`.';

/**
 * Vesting schedules and the vesting projection. Spec 4.7 names no permission for these routes;
 * the least that fits is used: reads need `canViewOrganization` of the schedule's organization,
 * writes `canEditCapTable`.
 */
@ApiTags('cap table')
@Controller('v1')
export class VestingSchedulesController {
  constructor(
    private readonly schedules: VestingSchedulesService,
    private readonly projection: VestingProjectionService,
  ) {}

  @Post('vestingSchedule')
  @Idempotent()
  @Permission('canEditCapTable', { body: 'organization', bodyRecords: { plan: 'plan' } })
  @ApiOperation({
    summary: 'Create a vesting schedule (OCF VestingTerms), version 1',
    description:
      'Permission: `canEditCapTable` in the body’s `organization` (the spec names none; a write ' +
      'of the cap table). `plan` (optional) must be a plan of that organization (else 404); ' +
      `without it the schedule is organization-wide. ${TERMS} A \`VESTING_TERMS_CREATED\` ` +
      'transaction of the log; event `vesting_schedule.created`.',
  })
  @ApiCreatedResponse({ description: 'The schedule, version 1', type: VestingScheduleView })
  @ApiBadRequestResponse({ description: 'Invalid terms `{error, message, field?}`' })
  create(@Access() access: AccessContext, @Body() dto: VestingScheduleDto) {
    return this.schedules.create(access, dto);
  }

  @Put('vestingSchedule/:vestingSchedule')
  @Idempotent()
  @Permission('canEditCapTable', {
    record: 'vestingSchedule',
    body: 'organization',
    bodyRecords: { plan: 'plan' },
  })
  @ApiOperation({
    summary: 'Replace a vesting schedule by a new version',
    description:
      'Permission: `canEditCapTable` in the schedule’s organization (the spec names none), which ' +
      'the body’s `organization` must be (else 404). The whole body, as for a new schedule, is ' +
      'stored as a NEW version under a new id (`version` + 1, `previousVersion` = the old id); ' +
      'the old version gets `supersededBy` and stays readable. Grants made with the old version ' +
      'keep it and vest by it. A version that was already superseded → 409. Event ' +
      '`vesting_schedule.updated` (object: the new version; previous attributes: the old one’s).',
  })
  @ApiOkResponse({ description: 'The new version', type: VestingScheduleView })
  @ApiConflictResponse({ description: 'The version was already superseded' })
  replace(
    @Access() access: AccessContext,
    @Param('vestingSchedule') id: string,
    @Body() dto: VestingScheduleDto,
  ) {
    return this.schedules.replace(access, id, dto);
  }

  @Delete('plan/:plan/vestingSchedule/:vestingSchedule')
  @Permission('canEditCapTable', { record: 'plan' })
  @ApiOperation({
    summary: 'Delete a vesting schedule of a plan (or an organization-wide one)',
    description:
      'Permission: `canEditCapTable` in the plan’s organization (the spec names none). The ' +
      'schedule must be the plan’s or organization-wide (else 404). Refused (409) while an ' +
      'active grant uses it. Soft delete: it is not found afterwards; the log keeps its history. ' +
      'Event `vesting_schedule.deleted`.',
  })
  @ApiOkResponse({
    description: '`{}`: the schedule is gone (404 afterwards)',
    schema: EMPTY_OBJECT,
  })
  @ApiConflictResponse({ description: 'An active grant uses the schedule' })
  async remove(
    @Access() access: AccessContext,
    @Param('plan') plan: string,
    @Param('vestingSchedule') id: string,
  ): Promise<object> {
    await this.schedules.remove(access, plan, id);
    return {};
  }

  @Get('vestingSchedule/:vestingSchedule')
  @Permission('canViewOrganization', { record: 'vestingSchedule' })
  @ApiOperation({
    summary: 'One vesting schedule version',
    description:
      'Permission: `canViewOrganization` of the schedule’s organization (the spec names none). ' +
      'Superseded versions are readable too (with `supersededBy`); a deleted one is 404.',
  })
  @ApiOkResponse({ description: 'The schedule version', type: VestingScheduleView })
  get(@Access() access: AccessContext, @Param('vestingSchedule') id: string) {
    return this.schedules.get(access.organizationId!, id);
  }

  @Get('vestingSchedule')
  @Permission('canViewOrganization', { query: 'organization', queryOptional: true })
  @ApiOperation({
    summary: 'The vesting schedules of an organization, or of all the caller’s, oldest first',
    description:
      'With `?organization=`: that organization’s, and the caller needs its ' +
      '`canViewOrganization` (the spec names none; not a member or no such organization → 403/404). ' +
      'Without it: the schedules of every organization (not deleted) in which the caller is an ' +
      'active member whose role has `canViewOrganization`, each naming its `organization`; none ' +
      'of any other organization (no such membership: `[]`). By default the current versions ' +
      'only (not superseded); `versions=all` lists every version. `plan=` keeps the schedules of ' +
      'that plan (a plan of another organization, or of none the caller may view → 404). Paged ' +
      'by `limit` (default 100, at most 1000) and `offset`.',
  })
  @ApiOkResponse({ description: 'The schedules', type: [VestingScheduleView] })
  list(@Access() access: AccessContext, @Query() query: ListVestingSchedulesQuery) {
    return access.organizationId
      ? this.schedules.list(access.organizationId, query)
      : this.schedules.listVisible(access.userId, query);
  }

  @Post('schedule/project')
  @Permission('canViewOrganization', { record: 'vestingSchedule', bodyRecord: 'vestingSchedule' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Preview the vesting of a quantity (nothing is saved)',
    description:
      'Body `{quantity, vestingStartDate, vestingSchedule?: id, schedule?: terms, ' +
      'changeOfControlDate?, terminationDate?}`: exactly one of `vestingSchedule` (a stored ' +
      'schedule, any version: needs `canViewOrganization` of its organization) and `schedule` ' +
      '(inline terms: a session is enough). Whole-share allocation types need a whole ' +
      'quantity. With acceleration terms, the change of control (single trigger) or a ' +
      'termination on or after it (double trigger) applies the acceleration. A stored schedule ' +
      'recorded with more periods than the bound below → 400 `{field: "vestingSchedule"}`. ' +
      `${TERMS} Answers 200: nothing is created.`,
  })
  @ApiOkResponse({ description: 'The vesting events', type: VestingProjectionView })
  @ApiBadRequestResponse({
    description: 'Invalid input, neither or both of vestingSchedule and schedule',
  })
  project(@Access() access: AccessContext, @Body() dto: ProjectVestingDto) {
    return this.projection.project(access, dto);
  }
}
