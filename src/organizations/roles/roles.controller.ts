import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { RoleDto } from './role.dto';
import { RoleView } from './role.view';
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
  @ApiOkResponse({ type: [RoleView], description: 'Built-in roles first, then the custom ones' })
  list(@Access() access: AccessContext): Promise<RoleView[]> {
    return this.roles.list(access.organizationId!);
  }

  @Get(':role')
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'One role (built-in, or the organization’s own)' })
  @ApiOkResponse({ type: RoleView })
  get(@Access() access: AccessContext, @Param('role') roleId: string): Promise<RoleView> {
    return this.roles.get(access.organizationId!, roleId);
  }

  @Post()
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Create a custom role; unknown permission names → 400, a taken name → 409',
  })
  @ApiCreatedResponse({ type: RoleView, description: 'The new role (`builtIn: false`)' })
  @ApiBadRequestResponse({
    description: 'Invalid body, or a permission name unknown or not grantable to a custom role',
  })
  @ApiConflictResponse({ description: 'A built-in or custom role already has this name' })
  create(@Access() access: AccessContext, @Body() dto: RoleDto): Promise<RoleView> {
    return this.roles.create(access, dto);
  }

  @Put(':role')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Replace a custom role’s name and permissions; built-in roles → 409' })
  @ApiOkResponse({ type: RoleView, description: 'The role as it now stands' })
  @ApiBadRequestResponse({
    description: 'Invalid body, or a permission name unknown or not grantable to a custom role',
  })
  @ApiConflictResponse({
    description: 'A built-in role, or another role already has the new name',
  })
  update(
    @Access() access: AccessContext,
    @Param('role') roleId: string,
    @Body() dto: RoleDto,
  ): Promise<RoleView> {
    return this.roles.update(access, roleId, dto);
  }

  @Delete(':role')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Delete a custom role; built-in or still assigned → 409' })
  @ApiOkResponse({
    description: '`{}`: the role is gone (404 afterwards)',
    schema: { type: 'object', additionalProperties: false },
  })
  @ApiConflictResponse({ description: 'A built-in role, or a role still assigned to members' })
  async remove(@Access() access: AccessContext, @Param('role') roleId: string): Promise<object> {
    await this.roles.remove(access, roleId);
    return {};
  }
}
