import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, Permission } from '../../common/http/access.decorators';
import { Access, AccessContext, CurrentUserId } from '../permissions/access-context';
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
  @ApiNotFoundResponse()
  get(@Param('organization') id: string) {
    return this.organizations.get(id);
  }

  @Patch(':organization')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Update name, legal name, country, currency or type' })
  @ApiOkResponse({ description: 'The updated organization' })
  update(
    @Access() access: AccessContext,
    @Param('organization') id: string,
    @Body() dto: UpdateOrganizationDto,
  ) {
    return this.organizations.update(access.userId, id, dto);
  }
}
