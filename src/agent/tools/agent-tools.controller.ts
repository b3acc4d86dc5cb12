import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { AgentTools } from './agent-tools.service';
import { TOOL_KINDS } from './tool-catalogue';

export class AgentToolView {
  @ApiProperty({ example: 'list_shareholdings' })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ enum: TOOL_KINDS })
  kind: string;

  @ApiProperty({ description: 'The permission its route needs', example: 'canViewCapTable' })
  permission: string;

  @ApiProperty({ description: 'Runs only once a person confirms it (POST /v1/agent/confirm)' })
  requiresConfirmation: boolean;

  @ApiProperty({
    description: 'The caller’s role may use it and its route is served; only these are offered',
  })
  allowed: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'JSON Schema of its input: the route’s body, query and record ids; null when absent',
  })
  inputSchema: Record<string, unknown> | null;
}

@ApiTags('agent')
@Controller('v1/organization/:organization/agent')
export class AgentToolsController {
  constructor(private readonly tools: AgentTools) {}

  @Get('tools')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The agent’s tools in this organization, for the caller',
    description:
      'Every tool of the catalogue, each a route of this API run as the caller; the ones the ' +
      'caller’s role cannot use are `allowed: false` and never offered to the model.',
  })
  @ApiOkResponse({ type: [AgentToolView] })
  list(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
  ): Promise<AgentToolView[]> {
    return this.tools.forCaller(access);
  }
}
