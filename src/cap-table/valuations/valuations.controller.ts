import { Body, Controller, Get, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, AccessContext, Permission } from '../../common';
import { PutValuationDto } from './valuation.dto';
import { ValuationsService, ValuationView } from './valuations.service';

const SHAPE =
  '{id, organization, type, pricePerShare, security, effectiveDate, provider, reportFile, created, updated}';

@ApiTags('cap table')
@Controller('v1')
export class ValuationsController {
  constructor(private readonly valuations: ValuationsService) {}

  @Put('valuation')
  @Permission('canEdit', { body: 'organization', bodyRecords: { id: 'valuation' } })
  @ApiOperation({
    summary: 'Record a valuation, or update one (`id`)',
    description: 'canEdit in the body’s organization. 201 when created, 200 when updated.',
  })
  @ApiCreatedResponse({ description: SHAPE })
  @ApiOkResponse({ description: SHAPE })
  async put(
    @Access() access: AccessContext,
    @Body() dto: PutValuationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ValuationView> {
    const { created, view } = await this.valuations.put(access, dto);
    res.status(created ? 201 : 200);
    return view;
  }

  @Get('organization/:organization/valuation')
  @Permission('canViewCapTable')
  @ApiOperation({ summary: 'The valuations, latest first' })
  @ApiOkResponse({ description: `[${SHAPE}]` })
  list(@Access() access: AccessContext) {
    return this.valuations.list(access.organizationId!);
  }

  @Get('valuation/:valuation')
  @Permission('canViewValuation')
  @ApiOperation({ summary: 'One valuation' })
  @ApiOkResponse({ description: SHAPE })
  get(@Param('valuation') id: string) {
    return this.valuations.get(id);
  }
}
