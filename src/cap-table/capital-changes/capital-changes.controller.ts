import { Body, Controller, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { CreateCapitalChangeDto, UpdateCapitalChangeDto } from './capital-change.dto';
import { CapitalChangeView } from './capital-change.view';
import { CapitalChangesService } from './capital-changes.service';

@ApiTags('cap table')
@Controller('v1/entity/:entity/capitalChange')
export class CapitalChangesController {
  constructor(private readonly capitalChanges: CapitalChangesService) {}

  @Post()
  @Idempotent()
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
  @ApiCreatedResponse({ type: CapitalChangeView, description: 'The capital change as recorded' })
  @ApiBadRequestResponse({
    description: 'Malformed body `{error, message}`, or `member` is not the member of `:entity`',
  })
  create(
    @Access() access: AccessContext,
    @Param('entity') entity: string,
    @Body() dto: CreateCapitalChangeDto,
  ): Promise<CapitalChangeView> {
    return this.capitalChanges.create(access, entity, dto);
  }

  @Patch()
  @Idempotent()
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
  @ApiOkResponse({ type: CapitalChangeView, description: 'The capital change afterwards' })
  @ApiNotFoundResponse({ description: '`id` is not a capital change of `:entity`' })
  update(
    @Access() access: AccessContext,
    @Param('entity') entity: string,
    @Body() dto: UpdateCapitalChangeDto,
  ): Promise<CapitalChangeView> {
    return this.capitalChanges.update(access, entity, dto);
  }
}
