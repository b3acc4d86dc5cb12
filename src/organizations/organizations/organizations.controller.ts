import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Authenticated, CurrentUserId, Permission } from '../../common';
import { CreateOrganizationDto, UpdateOrganizationDto } from './organization.dto';
import { OrganizationsService } from './organizations.service';
import { OrganizationView } from './organization.view';

@ApiTags('organizations')
@Controller('v1/organization')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @Authenticated()
  @ApiOperation({
    summary: 'Create an organization; the caller becomes its Owner',
    description:
      '`documentStore` picks where its documents live: `dataRoom`, or `suite` (the ' +
      'productivity-suite store, only while MICROSOFT_* configure it: else 400). Default: `suite` ' +
      'when configured and NODE_ENV=production, else `dataRoom`.',
  })
  @ApiCreatedResponse({ type: OrganizationView, description: 'The new organization' })
  @ApiBadRequestResponse({
    description:
      'Invalid field (name missing, country not ISO 3166-1 alpha-2, unknown currency, `suite` unconfigured...)',
  })
  create(
    @CurrentUserId() userId: string,
    @Body() dto: CreateOrganizationDto,
  ): Promise<OrganizationView> {
    return this.organizations.create(userId, dto);
  }

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'Organizations the caller is an active member of' })
  @ApiOkResponse({ type: [OrganizationView] })
  list(@CurrentUserId() userId: string): Promise<OrganizationView[]> {
    return this.organizations.listMine(userId);
  }

  @Get(':organization')
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'One organization' })
  @ApiOkResponse({ type: OrganizationView })
  get(@Access() access: AccessContext): Promise<OrganizationView> {
    return this.organizations.get(access.organizationId!);
  }

  @Patch(':organization')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Update name, legal name, country, currency, type or document store',
    description:
      '`documentStore` changes only while the organization has no document or folder (409); ' +
      '`suite` only while the productivity-suite store is configured (400).',
  })
  @ApiOkResponse({ type: OrganizationView, description: 'The updated organization' })
  @ApiBadRequestResponse({
    description: 'Invalid field; null for a field other than legalName or country',
  })
  @ApiConflictResponse({
    description: '`documentStore` changed while the organization has documents or folders',
  })
  update(
    @Access() access: AccessContext,
    @Body() dto: UpdateOrganizationDto,
  ): Promise<OrganizationView> {
    return this.organizations.update(access, dto);
  }

  @Delete(':organization')
  @Permission('canDeleteOrganization')
  @ApiOperation({
    summary: 'Delete the organization (Owner only; soft)',
    description:
      'The rows stay for the audit trail; afterwards every route of the organization answers 404 ' +
      'and it leaves every member’s list. Emits `organization.deleted`.',
  })
  @ApiOkResponse({
    description: '`{}`: the organization is gone (404 afterwards)',
    schema: { type: 'object', additionalProperties: false },
  })
  async remove(@Access() access: AccessContext): Promise<object> {
    await this.organizations.remove(access);
    return {};
  }
}
