import {
  Body,
  Controller,
  Delete,
  Get,
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
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  Access,
  AccessContext,
  CACHED_LIST_HEADERS,
  CachedList,
  ListResponder,
  Permission,
} from '../../common';
import { Idempotent } from '../../idempotency';
import {
  AmendShareholdingDto,
  IssueShareholdingDto,
  ListShareholdingsQuery,
  ReplaceShareholdingDto,
  TransferDto,
} from './shareholding.dto';
import { SHAREHOLDING_LIST, ShareholdingReadsService } from './shareholding-reads.service';
import {
  ShareBlockRow,
  ShareholdingConfig,
  ShareholdingView,
  TransferView,
} from './shareholding.view';
import { ShareholdingsService } from './shareholdings.service';

const INSUFFICIENT =
  '`insufficientShares`: more shares than the class has unissued, or than the source holds';
const BAD_REQUEST = `Malformed body \`{error, message}\`, or ${INSUFFICIENT} (\`{error, key, message}\`)`;
const NOT_FOUND =
  'No such organization, member, class, legend or shareholding in this organization `{error, key, message}`';
const NOT_ACTIVE = 'The shareholding is voided or transferred, not active';

@ApiTags('cap table')
@Controller('v1/organization/:organization')
export class OrganizationShareholdingsController {
  constructor(
    private readonly shareholdings: ShareholdingsService,
    private readonly reads: ShareholdingReadsService,
    private readonly lists: ListResponder,
  ) {}

  @Post('shareholding')
  @Idempotent()
  @Permission('canEditCapTable', { bodyRecords: { member: 'member', security: 'security' } })
  @ApiOperation({
    summary: 'Issue shares to a member (a stock issuance transaction)',
    description: `Certificate number from the class prefix. ${INSUFFICIENT}. Fractional quantities only for an LLC.`,
  })
  @ApiCreatedResponse({ type: ShareholdingView, description: 'The new shareholding' })
  @ApiBadRequestResponse({ description: BAD_REQUEST })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  issue(
    @Access() access: AccessContext,
    @Body() dto: IssueShareholdingDto,
  ): Promise<ShareholdingView> {
    return this.shareholdings.issue(access, dto);
  }

  @Post('shareholding/transfer')
  @Idempotent()
  @Permission('canEditCapTable', {
    bodyRecords: { shareholding: 'shareholding', toMember: 'member' },
  })
  @ApiOperation({
    summary: 'Transfer shares of a shareholding to a member (a stock transfer transaction)',
    description: `A partial transfer leaves the balance with the source. ${INSUFFICIENT}; a voided source → 409.`,
  })
  @ApiCreatedResponse({
    type: TransferView,
    description: 'The transfer transaction and the two shareholdings after it',
  })
  @ApiBadRequestResponse({
    description: `${BAD_REQUEST}; toMember already holds the source, or a date before its issue date`,
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: 'The source is not active' })
  transfer(@Access() access: AccessContext, @Body() dto: TransferDto): Promise<TransferView> {
    return this.shareholdings.transfer(access, dto);
  }

  @Get('shareholding')
  @Permission('canViewCapitalizationOrSelf')
  @CachedList(SHAREHOLDING_LIST)
  @ApiOperation({
    summary: 'Shareholdings, oldest first (`?limit`, `?offset`, `?status`)',
    description:
      'A caller whose role lacks `canViewCapitalizationOrSelf` (a Shareholder) sees only their own. ' +
      'With an `ETag`; `If-None-Match` answers 304 while nothing changed.',
  })
  @ApiOkResponse({
    type: [ShareholdingView],
    description: 'The shareholdings, oldest first',
    headers: CACHED_LIST_HEADERS,
  })
  @ApiResponse({ status: 304, description: '`If-None-Match` named the current `ETag`: no body' })
  list(
    @Access() access: AccessContext,
    @Query() query: ListShareholdingsQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.lists.send(req, res, access, SHAREHOLDING_LIST, () =>
      this.reads.list(access, query),
    );
  }

  @Get('shareholding/config')
  @Permission('canViewCapTable')
  @ApiOperation({
    summary: 'Operating-agreement settings of the cap table',
    description:
      'Whether quantities are shares or units (an LLC, where fractions are allowed) and the ' +
      'default legends.',
  })
  @ApiOkResponse({ type: ShareholdingConfig })
  config(@Access() access: AccessContext): Promise<ShareholdingConfig> {
    return this.reads.config(access);
  }

  @Get('block')
  @Permission('canViewCapitalizationOrSelf')
  @ApiOperation({
    summary: 'Numbered share ranges per class and holder',
    description:
      'In share-number order, class by class; shares are numbered per class in issuance order, a ' +
      'transfer moves the lowest numbers, a voided holding’s numbers are retired. A Shareholder ' +
      'sees only their own.',
  })
  @ApiOkResponse({ type: [ShareBlockRow], description: 'The numbered ranges' })
  blocks(@Access() access: AccessContext): Promise<ShareBlockRow[]> {
    return this.reads.blocks(access);
  }
}

@ApiTags('cap table')
@Controller('v1/shareholding/:holding')
export class ShareholdingController {
  constructor(
    private readonly shareholdings: ShareholdingsService,
    private readonly reads: ShareholdingReadsService,
  ) {}

  @Get()
  @Permission('canViewHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({ summary: 'One shareholding (its holder may read it too)' })
  @ApiOkResponse({ type: ShareholdingView })
  get(@Param('holding') id: string): Promise<ShareholdingView> {
    return this.reads.get(id);
  }

  @Patch()
  @Idempotent()
  @Permission('canEditHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary: 'Correct fields of an active shareholding (a correction transaction)',
    description: `quantity, pricePerShare, issueDate, legendIds, consideration. ${INSUFFICIENT}. The holder or class change only by a transfer (400).`,
  })
  @ApiOkResponse({ type: ShareholdingView, description: 'The shareholding after the correction' })
  @ApiBadRequestResponse({ description: `${BAD_REQUEST}; a change of holder or class` })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: NOT_ACTIVE })
  amend(
    @Access() access: AccessContext,
    @Param('holding') id: string,
    @Body() dto: AmendShareholdingDto,
  ): Promise<ShareholdingView> {
    return this.shareholdings.amend(access, id, dto, false);
  }

  @Put()
  @Idempotent()
  @Permission('canEditHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary: 'Replace the editable fields of an active shareholding (a correction transaction)',
    description:
      'quantity and issueDate required; an omitted pricePerShare, consideration or legendIds is cleared.',
  })
  @ApiOkResponse({ type: ShareholdingView, description: 'The shareholding after the correction' })
  @ApiBadRequestResponse({ description: `${BAD_REQUEST}; a change of holder or class` })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: NOT_ACTIVE })
  replace(
    @Access() access: AccessContext,
    @Param('holding') id: string,
    @Body() dto: ReplaceShareholdingDto,
  ): Promise<ShareholdingView> {
    return this.shareholdings.amend(access, id, dto, true);
  }

  @Delete()
  @Permission('canEditHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary:
      'Void a shareholding (soft; a cancellation transaction): its shares return to the unissued balance',
  })
  @ApiOkResponse({
    type: ShareholdingView,
    description: 'The shareholding as it now stands (status `voided`)',
  })
  @ApiConflictResponse({ description: 'Already voided or transferred' })
  void(@Access() access: AccessContext, @Param('holding') id: string): Promise<ShareholdingView> {
    return this.shareholdings.void(access, id);
  }
}
