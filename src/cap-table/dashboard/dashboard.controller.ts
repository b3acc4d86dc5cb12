import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { DashboardQuery } from './dashboard.dto';
import { DashboardService } from './dashboard.service';
import { Dashboard } from './dashboard.view';

@ApiTags('cap table')
@Controller('v1/captable/:organization')
export class DashboardController {
  constructor(private readonly dashboards: DashboardService) {}

  @Get('dashboard')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'Authorized, issued, outstanding and fully diluted shares, by holder and by class',
    description:
      'Percentages have 4 decimals and add up to exactly 100. `?asOf=YYYY-MM-DD`: the cap table as it ' +
      'stood at the end of that date. byHolder lists every holder for roles with canViewCapitalizationOrSelf, else only the ' +
      'caller’s own rows; latestValuation is null for roles without canViewValuation.',
  })
  @ApiOkResponse({ type: Dashboard, description: 'The dashboard' })
  @ApiBadRequestResponse({
    description:
      'Malformed path or query (an unknown parameter, a malformed `asOf`), or an `asOf` in the future',
  })
  dashboard(@Access() access: AccessContext, @Query() query: DashboardQuery): Promise<Dashboard> {
    return this.dashboards.dashboard(access, query.asOf);
  }
}
