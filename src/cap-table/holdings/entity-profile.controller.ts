import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUserId } from '../../common';
import { HoldingReadsService } from './holding-reads.service';
import { HOLDING_SHAPE } from './holding.view';

@ApiTags('cap table')
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
  @ApiOkResponse({
    description: `[{organization: {id, name}, member, shareholdings: [shareholding], holdings: [${HOLDING_SHAPE}]}]`,
  })
  profile(@CurrentUserId() userId: string, @Param('entity') entityId: string) {
    return this.reads.portfolio(userId, entityId);
  }
}
