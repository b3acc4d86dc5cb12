import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission, EMPTY_OBJECT } from '../../common';
import { Idempotent } from '../../idempotency';
import { LegendDto, UpdateLegendDto } from './legend.dto';
import { LegendView } from './legend.view';
import { LegendsService } from './legends.service';

@ApiTags('cap table')
@Controller('v1/organization/:organization/legend')
export class LegendsController {
  constructor(private readonly legends: LegendsService) {}

  @Post()
  @Idempotent()
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Create a legend template (OCF StockLegendTemplate)' })
  @ApiCreatedResponse({ type: LegendView, description: 'The new legend template' })
  create(@Access() access: AccessContext, @Body() dto: LegendDto): Promise<LegendView> {
    return this.legends.create(access, dto);
  }

  @Get()
  @Permission('canViewCapTable')
  @ApiOperation({ summary: 'The legend templates' })
  @ApiOkResponse({ type: [LegendView], description: 'The legend templates, oldest first' })
  list(@Access() access: AccessContext): Promise<LegendView[]> {
    return this.legends.list(access.organizationId!);
  }

  @Get(':legend')
  @Permission('canViewCapTable')
  @ApiOperation({ summary: 'One legend template' })
  @ApiOkResponse({ type: LegendView })
  get(@Access() access: AccessContext, @Param('legend') id: string): Promise<LegendView> {
    return this.legends.get(access.organizationId!, id);
  }

  @Patch(':legend')
  @Idempotent()
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Change name, text or isDefault' })
  @ApiOkResponse({ type: LegendView, description: 'The legend template afterwards' })
  update(
    @Access() access: AccessContext,
    @Param('legend') id: string,
    @Body() dto: UpdateLegendDto,
  ): Promise<LegendView> {
    return this.legends.update(access, id, dto);
  }

  @Delete(':legend')
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Delete a legend template that no active shareholding carries' })
  @ApiOkResponse({ schema: EMPTY_OBJECT, description: '`{}`: the legend is gone (404 afterwards)' })
  @ApiConflictResponse({ description: 'An active shareholding carries the legend' })
  async remove(@Access() access: AccessContext, @Param('legend') id: string): Promise<object> {
    await this.legends.remove(access, id);
    return {};
  }
}
