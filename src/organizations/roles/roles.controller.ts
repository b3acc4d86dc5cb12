import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { RoleDto } from './role.dto';
import { RolesService } from './roles.service';

@ApiTags('roles')
@Controller('v1/organization/:organization/role')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'Built-in roles and the organization’s custom roles, with their permissions',
  })
  list(@Access() access: AccessContext) {
    return this.roles.list(access.organizationId!);
  }

  @Get(':role')
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'One role (built-in, or the organization’s own)' })
  get(@Access() access: AccessContext, @Param('role') roleId: string) {
    return this.roles.get(access.organizationId!, roleId);
  }

  @Post()
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Create a custom role; unknown permission names → 400, a taken name → 409',
  })
  @ApiCreatedResponse({ description: '{id, name, builtIn: false, organization, permissions}' })
  create(@Access() access: AccessContext, @Body() dto: RoleDto) {
    return this.roles.create(access, dto);
  }

  @Put(':role')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Replace a custom role’s name and permissions; built-in roles → 409' })
  @ApiConflictResponse()
  update(@Access() access: AccessContext, @Param('role') roleId: string, @Body() dto: RoleDto) {
    return this.roles.update(access, roleId, dto);
  }

  @Delete(':role')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Delete a custom role; built-in or still assigned → 409' })
  @ApiOkResponse({ description: '`{}`: the role is gone (404 afterwards)' })
  async remove(@Access() access: AccessContext, @Param('role') roleId: string): Promise<object> {
    await this.roles.remove(access, roleId);
    return {};
  }
}
