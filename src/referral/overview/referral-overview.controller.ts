import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../common';
import { EntityReferralView, OrganizationReferralView } from './referral-overview.view';
import { ReferralOverview } from './referral-overview.service';

@ApiTags('referral')
@Controller('v1')
export class ReferralOverviewController {
  constructor(private readonly overview: ReferralOverview) {}

  @Get('referral/:entity')
  @Permission('canEditOrganizationBilling', { record: 'entity' })
  @ApiOperation({
    summary: 'An entity’s referral code, invitations, cards and credit balance',
    description:
      'A personal entity: its owner only, with the owner’s code, invitations and cards. An ' +
      'organization’s entity: members with `canEditOrganizationBilling`, with its balance ' +
      '(no code, invitations or cards: those are people’s). Others 403, unknown 404.',
  })
  @ApiOkResponse({ type: EntityReferralView })
  ofEntity(@Param('entity') entityId: string): Promise<EntityReferralView> {
    return this.overview.ofEntity(entityId);
  }

  @Get('organization/:organization/referral')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s credit balance and what moved it',
    description:
      'The spec names the segment `:entity`; it is the organization’s id. Totals of the ' +
      'organization entity’s credit ledger.',
  })
  @ApiOkResponse({ type: OrganizationReferralView })
  ofOrganization(@Param('organization') organizationId: string): Promise<OrganizationReferralView> {
    return this.overview.ofOrganization(organizationId);
  }
}
