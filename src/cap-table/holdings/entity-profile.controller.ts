import { Controller, Get, Param } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUserId } from '../../common';
import { HoldingReadsService } from './holding-reads.service';
import { HOLDING_VIEWS, PortfolioEntry } from './holding.view';

@ApiTags('cap table')
@ApiExtraModels(...HOLDING_VIEWS)
@Controller('v1/entity/:entity/profile')
export class EntityProfileController {
  constructor(private readonly reads: HoldingReadsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'An entity’s portfolio across organizations',
    description:
      'One entry per organization (not deleted) the entity is a current member of, by organization name: ' +
      '{organization: {id, name}, member, shareholdings (active), holdings (every status)}. ' +
      'The spec names no permission: the entity’s owner (whose personal entity it is) sees every organization; ' +
      'anyone else only the organizations where their role has `canViewCapTable` (403 when there is none); 404 for an unknown entity.',
  })
  @ApiOkResponse({ description: 'One entry per organization', type: [PortfolioEntry] })
  @ApiForbiddenResponse({
    description:
      'Not the entity’s owner, and `canViewCapTable` in none of the organizations it belongs to',
  })
  @ApiNotFoundResponse({ description: 'No such entity' })
  profile(@CurrentUserId() userId: string, @Param('entity') entityId: string) {
    return this.reads.portfolio(userId, entityId);
  }
}
