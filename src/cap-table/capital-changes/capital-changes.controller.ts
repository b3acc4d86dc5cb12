import { Body, Controller, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { CreateCapitalChangeDto, UpdateCapitalChangeDto } from './capital-change.dto';
import { CapitalChangesService } from './capital-changes.service';

const SHAPE =
  '{id, organization, member, entity, date, amount, currency, type, description, created, updated}';

@ApiTags('cap table')
@Controller('v1/entity/:entity/capitalChange')
export class CapitalChangesController {
  constructor(private readonly capitalChanges: CapitalChangesService) {}

  @Post()
  @Permission('canEdit', {
    record: 'memberEntity',
    param: 'entity',
    body: 'organization',
    bodyRecords: { member: 'member' },
  })
  @ApiOperation({
    summary: 'Record a capital contribution or distribution of a member’s entity',
    description:
      'canEdit in the body’s organization; `:entity` must be the entity of `member`, a member of it.',
  })
  @ApiCreatedResponse({ description: SHAPE })
  create(
    @Access() access: AccessContext,
    @Param('entity') entity: string,
    @Body() dto: CreateCapitalChangeDto,
  ) {
    return this.capitalChanges.create(access, entity, dto);
  }

  @Patch()
  @Permission('canEdit', {
    record: 'memberEntity',
    param: 'entity',
    body: 'organization',
    bodyRecords: { id: 'capitalChange' },
  })
  @ApiOperation({
    summary:
      'Edit a capital change (`id`) of the entity: date, amount, currency, type, description',
  })
  @ApiOkResponse({ description: SHAPE })
  update(
    @Access() access: AccessContext,
    @Param('entity') entity: string,
    @Body() dto: UpdateCapitalChangeDto,
  ) {
    return this.capitalChanges.update(access, entity, dto);
  }
}
