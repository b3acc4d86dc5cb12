import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Authenticated, CurrentUserId, Permission } from '../../common';
import { CreateOrganizationDto, UpdateOrganizationDto } from './organization.dto';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@Controller('v1/organization')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @Authenticated()
  @ApiOperation({ summary: 'Create an organization; the caller becomes its Owner' })
  @ApiCreatedResponse({
    description:
      '{id, name, legalName, country, currency, type, entity, address, created, updated}',
  })
  create(@CurrentUserId() userId: string, @Body() dto: CreateOrganizationDto) {
    return this.organizations.create(userId, dto);
  }

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'Organizations the caller is an active member of' })
  list(@CurrentUserId() userId: string) {
    return this.organizations.listMine(userId);
  }

  @Get(':organization')
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'One organization' })
  get(@Access() access: AccessContext) {
    return this.organizations.get(access.organizationId!);
  }

  @Patch(':organization')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Update name, legal name, country, currency or type' })
  @ApiOkResponse({ description: 'The updated organization' })
  update(@Access() access: AccessContext, @Body() dto: UpdateOrganizationDto) {
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
  @ApiOkResponse({ description: '`{}`: the organization is gone (404 afterwards)' })
  async remove(@Access() access: AccessContext): Promise<object> {
    await this.organizations.remove(access);
    return {};
  }
}
