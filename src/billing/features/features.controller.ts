import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../common';
import { FeaturesService } from './features.service';
import { OrganizationFeaturesView } from './plan.view';

@ApiTags('billing')
@Controller('v1/organization/:organization')
export class FeaturesController {
  constructor(private readonly features: FeaturesService) {}

  @Get('features')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'What the organization’s plan enables, its limits and what it uses of them',
    description: 'Without a live subscription (or with billing not configured) the plan is `free`.',
  })
  @ApiOkResponse({ type: OrganizationFeaturesView })
  get(@Param('organization') organization: string): Promise<OrganizationFeaturesView> {
    return this.features.describe(organization);
  }
}
