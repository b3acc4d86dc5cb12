import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common';
import { AGENT_VERSION } from '../agent-version';

export class AgentStatusView {
  @ApiProperty({ enum: [true], description: 'Always true: without the agent the route is absent' })
  enabled: true;

  @ApiProperty({ example: AGENT_VERSION, description: 'The version of the tool catalogue' })
  version: string;
}

@ApiTags('agent')
@Controller('v1/agent')
export class AgentStatusController {
  @Get('status')
  @Authenticated()
  @ApiOperation({
    summary: 'Whether the agent is on',
    description:
      'Served only while the agent is on (LLM_API_KEY set, AGENT_ENABLED not `false`); ' +
      'otherwise this and every agent route answer 404.',
  })
  @ApiOkResponse({ type: AgentStatusView })
  status(): AgentStatusView {
    return { enabled: true, version: AGENT_VERSION };
  }
}
