import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  Access,
  AccessContext,
  Authenticated,
  CACHED_LIST_HEADERS,
  CachedList,
  CurrentUserId,
  ListResponder,
  Permission,
} from '../../common';
import { Idempotent } from '../../idempotency';
import {
  AmendHoldingDto,
  ConvertDto,
  CreateHoldingDto,
  ListMyHoldingsQuery,
  ListOrganizationHoldingsQuery,
  RepayDto,
} from './holding.dto';
import { HOLDING_LIST, HoldingReadsService } from './holding-reads.service';
import { HoldingSettlementsService } from './holding-settlements.service';
import { HoldingsService } from './holdings.service';
import { ConvertedView, HOLDING_VIEW_SCHEMA, HOLDING_VIEWS, NoteView } from './holding.view';

/** Body fields naming records: another organization's is 404 and nothing is created. */
const BODY_RECORDS = {
  member: 'member',
  plan: 'plan',
  pool: 'pool',
  vestingSchedule: 'vestingSchedule',
  security: 'security',
};
const HOLDING = { record: 'holding', param: 'holding' } as const;
const FIELDS =
  'Grants (`option_iso`, `option_nso`, `option`, `rsu`, `sar`): {plan, pool, quantity, exercisePrice (required except for RSUs), grantDate, expirationDate?, vestingSchedule?, vestingStartDate? (default grantDate), earlyExercisable? (false), terminationExerciseWindows? [{reason, period, periodType}]}. ' +
  'Warrants: {security, quantity, exercisePrice, grantDate, expirationDate?}. ' +
  'Convertible notes: {principal, currency? (the organization’s), interestRate (percent a year, "6" for 6%), interestType ("simple"|"compound"), dayCount ("actual/365"|"30/360"), issueDate, maturityDate, valuationCap?, discount? (percent, "20" for 20%)}. ' +
  'SAFEs: {amount, currency?, safeType ("pre_money"|"post_money"), valuationCap?, discount?, mfn? (false), proRata? (false), issueDate}. ' +
  'A field of another type is refused (400); a missing required one is `invalidFields`.';
const SUPERSEDED =
  '`vestingSchedule` is a version that was replaced since (grant with the latest version)';
const NOT_ACTIVE = 'The holding is not active (cancelled, exercised, repaid or converted)';
const INSUFFICIENT =
  '`insufficientShares`: a grant (or a larger quantity) beyond its pool’s available shares, or a quantity below what was exercised or cancelled';

@ApiTags('cap table')
@ApiExtraModels(...HOLDING_VIEWS)
@Controller('v1/holding')
export class HoldingsController {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly settlements: HoldingSettlementsService,
    private readonly reads: HoldingReadsService,
  ) {}

  @Post()
  @Idempotent()
  @Permission('canEdit', { body: 'organization', bodyRecords: BODY_RECORDS })
  @ApiOperation({
    summary: 'Grant an option, RSU or SAR, or issue a warrant, convertible note or SAFE',
    description:
      `Requires \`canEdit\` in the body's organization; the member, plan, pool, vesting schedule and class must be its own (404 otherwise). ${FIELDS} ` +
      `A grant takes its pool's available shares (${INSUFFICIENT}) and becomes shares of its plan's class; a whole-share vesting allocation needs a whole quantity, and fractional quantities are an LLC's. ` +
      'Records the member count for billing.',
  })
  @ApiCreatedResponse({ description: 'The holding', schema: HOLDING_VIEW_SCHEMA })
  @ApiBadRequestResponse({ description: `Validation, or ${INSUFFICIENT}` })
  @ApiConflictResponse({ description: SUPERSEDED })
  create(@Access() access: AccessContext, @Body() dto: CreateHoldingDto) {
    return this.holdings.create(access, dto);
  }

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'The holdings of the caller across organizations (`?limit`, `?offset`)',
    description:
      'The spec names no permission: any logged-in user, who sees only their own. Every holding (any status) of the caller’s own member records that are not removed, in organizations that are not deleted, oldest first; each names its `organization`.',
  })
  @ApiOkResponse({
    description: 'The caller’s holdings',
    schema: { type: 'array', items: HOLDING_VIEW_SCHEMA },
  })
  mine(@CurrentUserId() userId: string, @Query() query: ListMyHoldingsQuery) {
    return this.reads.mine(userId, query);
  }

  @Get(':holding')
  @Permission('canViewHolding', HOLDING)
  @ApiOperation({ summary: 'One holding (its holder may read it too)' })
  @ApiOkResponse({ description: 'The holding', schema: HOLDING_VIEW_SCHEMA })
  get(@Param('holding') id: string) {
    return this.reads.get(id);
  }

  @Put(':holding')
  @Idempotent()
  @Permission('canEditHolding', { ...HOLDING, bodyRecords: BODY_RECORDS })
  @ApiOperation({
    summary: 'Replace the editable terms of an active holding (an amendment transaction)',
    description:
      `Every editable field of the holding's type: required ones must be sent, an omitted optional one is cleared or takes its default. ${FIELDS} ` +
      'The member, type, plan, pool and class cannot change (400; accepted unchanged). ' +
      `${INSUFFICIENT}. A note with repayments keeps its principal and interest terms (409). Nothing changed → nothing recorded.`,
  })
  @ApiOkResponse({ description: 'The holding as amended', schema: HOLDING_VIEW_SCHEMA })
  @ApiBadRequestResponse({ description: `Validation, or ${INSUFFICIENT}` })
  @ApiConflictResponse({
    description: `${NOT_ACTIVE}; the principal or interest terms of a note with repayments; or ${SUPERSEDED}`,
  })
  replace(
    @Access() access: AccessContext,
    @Param('holding') id: string,
    @Body() dto: AmendHoldingDto,
  ) {
    return this.holdings.amend(access, id, dto, true);
  }

  @Patch(':holding')
  @Idempotent()
  @Permission('canEditHolding', { ...HOLDING, bodyRecords: BODY_RECORDS })
  @ApiOperation({
    summary: 'Change some terms of an active holding (an amendment transaction)',
    description:
      'Any editable fields of the holding’s type; null clears a nullable one (a null vestingStartDate goes back to the grant date), and is refused for required ones. ' +
      `The member, type, plan, pool and class cannot change (400). ${INSUFFICIENT}. Nothing changed → nothing recorded.`,
  })
  @ApiOkResponse({ description: 'The holding as amended', schema: HOLDING_VIEW_SCHEMA })
  @ApiBadRequestResponse({ description: `Validation, or ${INSUFFICIENT}` })
  @ApiConflictResponse({
    description: `${NOT_ACTIVE}; the principal or interest terms of a note with repayments; or ${SUPERSEDED}`,
  })
  amend(
    @Access() access: AccessContext,
    @Param('holding') id: string,
    @Body() dto: AmendHoldingDto,
  ) {
    return this.holdings.amend(access, id, dto, false);
  }

  @Delete(':holding')
  @Permission('canEditHolding', HOLDING)
  @ApiOperation({
    summary: 'Cancel a holding (soft: it stays, with status `cancelled`)',
    description:
      "A grant's outstanding shares return to its pool, or leave the plan when the plan's defaultCancellationBehavior is `retire`. Records the member count for billing.",
  })
  @ApiOkResponse({
    description: 'The holding as it now stands (status `cancelled`)',
    schema: HOLDING_VIEW_SCHEMA,
  })
  @ApiConflictResponse({ description: NOT_ACTIVE })
  cancel(@Access() access: AccessContext, @Param('holding') id: string) {
    return this.holdings.cancel(access, id);
  }

  @Post(':holding/repay')
  @Idempotent()
  @HttpCode(200)
  @Permission('canEditHolding', HOLDING)
  @ApiOperation({
    summary: 'Record a repayment of a convertible note',
    description:
      'Pays the interest owed on `date` first (accrued since the issue date or the last repayment), then principal; nothing left → status `repaid`. ' +
      'Notes only (400 for other types); more than is owed, or a date before the last repayment → 400; a note not active → 409.',
  })
  @ApiOkResponse({ description: 'The note after the repayment', type: NoteView })
  @ApiConflictResponse({ description: 'The note is not active (repaid, converted or cancelled)' })
  repay(@Access() access: AccessContext, @Param('holding') id: string, @Body() dto: RepayDto) {
    return this.settlements.repay(access, id, dto);
  }

  @Post(':holding/convert')
  @Idempotent()
  @Permission('canEditHolding', { ...HOLDING, bodyRecords: { security: 'security' } })
  @ApiOperation({
    summary: 'Convert a convertible note or SAFE into shares in a priced round',
    description:
      'Shares of `security` at the lowest of the cap price and the round price less the discount: a post-money SAFE by the YC post-money safe (Company Capitalization = the cap table the day before `date`: issued shares of every class as converted, outstanding grants and warrants, available pool shares, the shares of notes and pre-money SAFEs converted on the same date, and the conversion shares of every post-money SAFE outstanding), ' +
      'a pre-money SAFE over that capitalization without the SAFEs, a note on its principal outstanding plus interest owed on `date`. ' +
      '`pricePerShare` is the round’s price; `preMoneyValuation` is recorded with the conversion, not used. Whole shares (rounded down) unless the organization is an LLC. ' +
      'Notes and SAFEs only (400); not active (converted twice) → 409; more shares than the class has unissued → `insufficientShares`.',
  })
  @ApiCreatedResponse({
    description: 'The converted note or SAFE and the shareholding issued',
    type: ConvertedView,
  })
  @ApiConflictResponse({
    description: 'The note or SAFE is not active (converted, repaid or cancelled)',
  })
  convert(@Access() access: AccessContext, @Param('holding') id: string, @Body() dto: ConvertDto) {
    return this.settlements.convert(access, id, dto);
  }
}

@ApiTags('cap table')
@ApiExtraModels(...HOLDING_VIEWS)
@Controller('v1/organization/:organization/holding')
export class OrganizationHoldingsController {
  constructor(
    private readonly reads: HoldingReadsService,
    private readonly lists: ListResponder,
  ) {}

  @Get()
  @Permission('canViewOrganization')
  @CachedList(HOLDING_LIST)
  @ApiOperation({
    summary: 'The organization’s holdings, oldest first (`?limit`, `?offset`, `?type`)',
    description:
      'Option grants, RSUs, SARs, warrants, convertible notes and SAFEs of every status, each as `GET /v1/holding/:holding` shows it; `?type` keeps one type. ' +
      'Requires `canViewOrganization`, as the organization’s option list: a role with `canViewHolding` (the permission of `GET /v1/holding/:holding`) sees every holding, ' +
      'any other (a Shareholder) only the holdings of their own member records. ' +
      'With an `ETag`; `If-None-Match` answers 304 while nothing changed (vested figures are of the day: a new day is a new version).',
  })
  @ApiOkResponse({
    description: 'The holdings',
    schema: { type: 'array', items: HOLDING_VIEW_SCHEMA },
    headers: CACHED_LIST_HEADERS,
  })
  @ApiResponse({ status: 304, description: '`If-None-Match` named the current `ETag`: no body' })
  list(
    @Access() access: AccessContext,
    @Query() query: ListOrganizationHoldingsQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.lists.send(req, res, access, HOLDING_LIST, async () =>
      JSON.stringify(await this.reads.ofOrganization(access, query)),
    );
  }
}
