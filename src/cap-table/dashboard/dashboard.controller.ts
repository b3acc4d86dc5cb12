import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, DateField, Permission } from '../../common';
import { DashboardService } from './dashboard.service';

export class DashboardQuery {
  /** The cap table as it stood on this date, replayed from the log; default today. */
  @DateField({ optional: true })
  asOf?: string;
}

@ApiTags('cap table')
@Controller('v1/captable/:organization')
export class DashboardController {
  constructor(private readonly dashboards: DashboardService) {}

  @Get('dashboard')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'Authorized, issued, outstanding and fully diluted shares, by holder and by class',
    description:
      '{asOf, authorized, issued, outstanding, fullyDiluted, byHolder: [{member, name, shares, percent, ' +
      'fullyDilutedPercent}], byClass: [{security, name, authorized, issued, percent}], latestValuation}. ' +
      'Percentages have 4 decimals and add up to exactly 100. `?asOf=YYYY-MM-DD` replays the log up to ' +
      'that date. byHolder lists every holder for roles with canViewCapitalizationOrSelf, else only the ' +
      'caller’s own rows; latestValuation is null for roles without canViewValuation.',
  })
  @ApiOkResponse({ description: 'The dashboard' })
  dashboard(@Access() access: AccessContext, @Query() query: DashboardQuery) {
    return this.dashboards.dashboard(access, query.asOf);
  }
}
