import { Body, Controller, Delete, Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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
  CACHED_LIST_HEADERS,
  CachedList,
  EMPTY_OBJECT,
  ListResponder,
  Permission,
} from '../../common';
import { Idempotent } from '../../idempotency';
import { AddSharesDto, SecurityDto, SplitDto } from './security.dto';
import { SecurityView, SplitView } from './security.view';
import { SECURITY_LIST, SecuritiesService } from './securities.service';

const TAKEN = 'Another class of the organization has this name or idPrefix';

@ApiTags('cap table')
@Controller('v1/organization/:organization/security')
export class SecuritiesController {
  constructor(
    private readonly securities: SecuritiesService,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @Permission('canEditCapTable')
  @ApiOperation({
    summary: 'Create a share class (OCF StockClass)',
    description: 'Fractional authorized shares only for an LLC. A taken name or idPrefix → 409.',
  })
  @ApiCreatedResponse({ type: SecurityView, description: 'The new class' })
  @ApiConflictResponse({ description: TAKEN })
  create(@Access() access: AccessContext, @Body() dto: SecurityDto): Promise<SecurityView> {
    return this.securities.create(access, dto);
  }

  @Get()
  @Permission('canViewOrganization')
  @CachedList(SECURITY_LIST)
  @ApiOperation({
    summary: 'The share classes, most senior first',
    description: 'With an `ETag`; `If-None-Match` answers 304 while nothing changed.',
  })
  @ApiOkResponse({
    type: [SecurityView],
    description: 'The classes, most senior first',
    headers: CACHED_LIST_HEADERS,
  })
  @ApiResponse({ status: 304, description: '`If-None-Match` named the current `ETag`: no body' })
  list(@Access() access: AccessContext, @Req() req: Request, @Res() res: Response) {
    return this.lists.send(req, res, access, SECURITY_LIST, async () =>
      JSON.stringify(await this.securities.list(access.organizationId!)),
    );
  }

  @Get(':security')
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'One share class' })
  @ApiOkResponse({ type: SecurityView })
  get(@Access() access: AccessContext, @Param('security') id: string): Promise<SecurityView> {
    return this.securities.get(access.organizationId!, id);
  }

  @Put(':security')
  @Idempotent()
  @Permission('canEditCapTable')
  @ApiOperation({
    summary: 'Replace a share class',
    description:
      'A change of authorizedShares is an authorized-shares adjustment transaction; fewer than the ' +
      'issued shares → 400 `insufficientShares`.',
  })
  @ApiOkResponse({ type: SecurityView, description: 'The class afterwards' })
  @ApiBadRequestResponse({
    description:
      'Malformed body `{error, message}`, or `insufficientShares`: fewer authorized shares than ' +
      'are issued and reserved `{error, key, message}`',
  })
  @ApiConflictResponse({ description: TAKEN })
  replace(
    @Access() access: AccessContext,
    @Param('security') id: string,
    @Body() dto: SecurityDto,
  ): Promise<SecurityView> {
    return this.securities.replace(access, id, dto);
  }

  @Post(':security/shares')
  @Idempotent()
  @Permission('canEditCapTable')
  @ApiOperation({
    summary: 'Authorize more shares of the class (an authorized-shares adjustment transaction)',
  })
  @ApiCreatedResponse({ type: SecurityView, description: 'The class afterwards' })
  @ApiBadRequestResponse({
    description:
      'Malformed body `{error, message}`, or the authorized shares would pass 28 digits before the point',
  })
  addShares(
    @Access() access: AccessContext,
    @Param('security') id: string,
    @Body() dto: AddSharesDto,
  ): Promise<SecurityView> {
    return this.securities.addShares(access, id, dto);
  }

  @Post(':security/split')
  @Permission('canEditCapTable')
  @Idempotent()
  @ApiOperation({
    summary: 'Split the class forward or in reverse (OCF TX_STOCK_CLASS_SPLIT)',
    description:
      '`numerator` new shares for every `denominator` held: 2 and 1 double every active ' +
      'shareholding, 1 and 10 is a 1-for-10 reverse split. Each shareholding is rounded down to ' +
      'whole shares (an LLC keeps fractional units) and the fraction is reported for paying out; ' +
      'one left with no whole share is voided. The authorized shares are split the same way; ' +
      'the original issue price and the conversion ratio inversely, so preferences and ' +
      'as-converted counts stay; a shareholding keeps the price it was issued at. The class is ' +
      'numbered anew from 1 in the order its shares ' +
      'held; certificates keep their numbers. A dashboard or export as of an earlier date shows ' +
      'the shares before the split. Shares reserved for stock plans and outstanding warrants are ' +
      'not split (the grants and warrants would not be): such a class → 409. The OCF export carries it as TX_STOCK_CLASS_SPLIT.',
  })
  @ApiCreatedResponse({
    type: SplitView,
    description: 'The split, the class afterwards and each shareholding',
  })
  @ApiBadRequestResponse({
    description:
      'Malformed body `{error, message}`, a ratio of 1, a reverse split leaving no authorized ' +
      'share, a ratio taking the authorized shares or a price per share past 28 digits before ' +
      'the point, or a date before the issue date of a shareholding of the class (`field`)',
  })
  @ApiConflictResponse({ description: 'The class has shares reserved for a stock plan' })
  split(
    @Access() access: AccessContext,
    @Param('security') id: string,
    @Body() dto: SplitDto,
  ): Promise<SplitView> {
    return this.securities.split(access, id, dto);
  }

  @Delete(':security')
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Delete a share class that has no issued shares' })
  @ApiOkResponse({
    schema: EMPTY_OBJECT,
    description: '`{}`: the class is gone (404 afterwards)',
  })
  @ApiConflictResponse({ description: 'The class has issued shares or shares reserved for a plan' })
  async remove(@Access() access: AccessContext, @Param('security') id: string): Promise<object> {
    await this.securities.remove(access, id);
    return {};
  }
}
