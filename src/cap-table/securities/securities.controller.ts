import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { AddSharesDto, SecurityDto } from './security.dto';
import { SecuritiesService } from './securities.service';

const SHAPE =
  '{id, organization, name, classType, idPrefix, authorizedShares, issuedShares, reservedShares (held back for stock plans), parValue, originalIssuePrice, currency, seniority, liquidationPreferenceMultiple, participating, participationCapMultiple, conversionRatio, votesPerShare, boardApprovalDate, created, updated}; decimals as strings';

@ApiTags('cap table')
@Controller('v1/organization/:organization/security')
export class SecuritiesController {
  constructor(private readonly securities: SecuritiesService) {}

  @Post()
  @Permission('canEditCapTable')
  @ApiOperation({
    summary: 'Create a share class (OCF StockClass)',
    description: 'Fractional authorized shares only for an LLC. A taken name or idPrefix → 409.',
  })
  @ApiCreatedResponse({ description: SHAPE })
  create(@Access() access: AccessContext, @Body() dto: SecurityDto) {
    return this.securities.create(access, dto);
  }

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'The share classes, most senior first' })
  @ApiOkResponse({ description: `[${SHAPE}]` })
  list(@Access() access: AccessContext) {
    return this.securities.list(access.organizationId!);
  }

  @Get(':security')
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'One share class' })
  @ApiOkResponse({ description: SHAPE })
  get(@Access() access: AccessContext, @Param('security') id: string) {
    return this.securities.get(access.organizationId!, id);
  }

  @Put(':security')
  @Permission('canEditCapTable')
  @ApiOperation({
    summary: 'Replace a share class',
    description:
      'A change of authorizedShares is an authorized-shares adjustment transaction; fewer than the ' +
      'issued shares → 400 `insufficientShares`.',
  })
  @ApiOkResponse({ description: SHAPE })
  replace(
    @Access() access: AccessContext,
    @Param('security') id: string,
    @Body() dto: SecurityDto,
  ) {
    return this.securities.replace(access, id, dto);
  }

  @Post(':security/shares')
  @Permission('canEditCapTable')
  @ApiOperation({
    summary: 'Authorize more shares of the class (an authorized-shares adjustment transaction)',
  })
  @ApiCreatedResponse({ description: `The class afterwards: ${SHAPE}` })
  addShares(
    @Access() access: AccessContext,
    @Param('security') id: string,
    @Body() dto: AddSharesDto,
  ) {
    return this.securities.addShares(access, id, dto);
  }

  @Delete(':security')
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Delete a share class that has no issued shares' })
  @ApiOkResponse({ description: '`{}`: the class is gone (404 afterwards)' })
  @ApiConflictResponse({ description: 'The class has issued shares' })
  async remove(@Access() access: AccessContext, @Param('security') id: string): Promise<object> {
    await this.securities.remove(access, id);
    return {};
  }
}
