import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { LegendDto, UpdateLegendDto } from './legend.dto';
import { LegendsService } from './legends.service';

const SHAPE = '{id, organization, name, text, isDefault, created}';

@ApiTags('cap table')
@Controller('v1/organization/:organization/legend')
export class LegendsController {
  constructor(private readonly legends: LegendsService) {}

  @Post()
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Create a legend template (OCF StockLegendTemplate)' })
  @ApiCreatedResponse({ description: SHAPE })
  create(@Access() access: AccessContext, @Body() dto: LegendDto) {
    return this.legends.create(access, dto);
  }

  @Get()
  @Permission('canViewCapTable')
  @ApiOperation({ summary: 'The legend templates' })
  @ApiOkResponse({ description: `[${SHAPE}]` })
  list(@Access() access: AccessContext) {
    return this.legends.list(access.organizationId!);
  }

  @Get(':legend')
  @Permission('canViewCapTable')
  @ApiOperation({ summary: 'One legend template' })
  @ApiOkResponse({ description: SHAPE })
  get(@Access() access: AccessContext, @Param('legend') id: string) {
    return this.legends.get(access.organizationId!, id);
  }

  @Patch(':legend')
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Change name, text or isDefault' })
  @ApiOkResponse({ description: SHAPE })
  update(
    @Access() access: AccessContext,
    @Param('legend') id: string,
    @Body() dto: UpdateLegendDto,
  ) {
    return this.legends.update(access, id, dto);
  }

  @Delete(':legend')
  @Permission('canEditCapTable')
  @ApiOperation({ summary: 'Delete a legend template that no active shareholding carries' })
  @ApiOkResponse({ description: '`{}`: the legend is gone (404 afterwards)' })
  @ApiConflictResponse({ description: 'An active shareholding carries the legend' })
  async remove(@Access() access: AccessContext, @Param('legend') id: string): Promise<object> {
    await this.legends.remove(access, id);
    return {};
  }
}
