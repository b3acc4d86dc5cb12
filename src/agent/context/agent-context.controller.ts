import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { AgentContext } from './agent-context.service';
import { AgentContextView } from './agent-context.view';

@ApiTags('agent')
@Controller('v1/organization/:organization/agent')
export class AgentContextController {
  constructor(private readonly context: AgentContext) {}

  @Get('context')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary:
      'What the agent works with here: the organization, the caller’s role, counts, tools and limits',
  })
  @ApiOkResponse({ type: AgentContextView })
  get(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
  ): Promise<AgentContextView> {
    return this.context.of(access);
  }
}
