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
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access, AccessContext, CachedList, ListResponder, Permission } from '../../common';
import {
  AmendShareholdingDto,
  IssueShareholdingDto,
  ListShareholdingsQuery,
  ReplaceShareholdingDto,
  TransferDto,
} from './shareholding.dto';
import { SHAREHOLDING_LIST, ShareholdingReadsService } from './shareholding-reads.service';
import { ShareholdingsService } from './shareholdings.service';

const SHAPE =
  '{id, organization, member, security, quantity, pricePerShare, issueDate, certificateNumber, status ("active", "voided", or "transferred" once every share went to others), legendIds, consideration, created}';
const INSUFFICIENT =
  '`insufficientShares`: more shares than the class has unissued, or than the source holds';

@ApiTags('cap table')
@Controller('v1/organization/:organization')
export class OrganizationShareholdingsController {
  constructor(
    private readonly shareholdings: ShareholdingsService,
    private readonly reads: ShareholdingReadsService,
    private readonly lists: ListResponder,
  ) {}

  @Post('shareholding')
  @Permission('canEditCapTable', { bodyRecords: { member: 'member', security: 'security' } })
  @ApiOperation({
    summary: 'Issue shares to a member (a stock issuance transaction)',
    description: `Certificate number from the class prefix. ${INSUFFICIENT}. Fractional quantities only for an LLC.`,
  })
  @ApiCreatedResponse({ description: SHAPE })
  issue(@Access() access: AccessContext, @Body() dto: IssueShareholdingDto) {
    return this.shareholdings.issue(access, dto);
  }

  @Post('shareholding/transfer')
  @Permission('canEditCapTable', {
    bodyRecords: { shareholding: 'shareholding', toMember: 'member' },
  })
  @ApiOperation({
    summary: 'Transfer shares of a shareholding to a member (a stock transfer transaction)',
    description: `A partial transfer leaves the balance with the source. ${INSUFFICIENT}; a voided source → 409.`,
  })
  @ApiCreatedResponse({
    description: `{id (the transaction), source, destination}: the two shareholdings after it, each ${SHAPE}`,
  })
  @ApiConflictResponse({ description: 'The source is not active' })
  transfer(@Access() access: AccessContext, @Body() dto: TransferDto) {
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
  @ApiOkResponse({ description: `[${SHAPE}]` })
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
      '{organization, unitName ("units" for an LLC, else "shares"), fractionalUnitsAllowed, defaultLegendIds}',
  })
  config(@Access() access: AccessContext) {
    return this.reads.config(access.organizationId!);
  }

  @Get('block')
  @Permission('canViewCapitalizationOrSelf')
  @ApiOperation({
    summary: 'Numbered share ranges per class and holder',
    description:
      '[{security, shareholding, member, certificateNumber, from, to}] in share-number order; shares are ' +
      'numbered per class in issuance order, a transfer moves the lowest numbers, a voided holding’s ' +
      'numbers are retired. A Shareholder sees only their own.',
  })
  blocks(@Access() access: AccessContext) {
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
  @ApiOkResponse({ description: SHAPE })
  get(@Param('holding') id: string) {
    return this.reads.get(id);
  }

  @Patch()
  @Permission('canEditHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary: 'Correct fields of an active shareholding (a correction transaction)',
    description: `quantity, pricePerShare, issueDate, legendIds, consideration. ${INSUFFICIENT}. The holder or class change only by a transfer (400).`,
  })
  @ApiOkResponse({ description: SHAPE })
  amend(
    @Access() access: AccessContext,
    @Param('holding') id: string,
    @Body() dto: AmendShareholdingDto,
  ) {
    return this.shareholdings.amend(access, id, dto, false);
  }

  @Put()
  @Permission('canEditHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary: 'Replace the editable fields of an active shareholding (a correction transaction)',
    description:
      'quantity and issueDate required; an omitted pricePerShare, consideration or legendIds is cleared.',
  })
  @ApiOkResponse({ description: SHAPE })
  replace(
    @Access() access: AccessContext,
    @Param('holding') id: string,
    @Body() dto: ReplaceShareholdingDto,
  ) {
    return this.shareholdings.amend(access, id, dto, true);
  }

  @Delete()
  @Permission('canEditHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary:
      'Void a shareholding (soft; a cancellation transaction): its shares return to the unissued balance',
  })
  @ApiOkResponse({ description: `The shareholding as it now stands (status "voided"): ${SHAPE}` })
  @ApiConflictResponse({ description: 'Already voided or transferred' })
  void(@Access() access: AccessContext, @Param('holding') id: string) {
    return this.shareholdings.void(access, id);
  }
}
