import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import {
  Access,
  AccessContext,
  ApiErrors,
  ApiKeyedErrors,
  Authenticated,
  CurrentUserId,
  Permission,
} from '../../common';
import { AgentChat } from './agent-chat.service';
import { AgentSteps } from './agent-steps.service';
import { ChatDto, ConfirmDto } from './chat.dto';
import { ChatView, ConfirmView } from './chat.view';

const LIMITED =
  'A limit of the agent was reached (tool calls per minute, writes per minute, destructive ' +
  'actions per hour): `Retry-After` in seconds, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, ' +
  '`X-RateLimit-Reset` (unix seconds)';

@ApiTags('agent')
@Controller('v1/agent')
export class ChatController {
  constructor(
    private readonly chat: AgentChat,
    private readonly steps: AgentSteps,
  ) {}

  @Post('chat')
  @HttpCode(200)
  @Permission('canViewOrganization', { body: 'organization' })
  @ApiOperation({
    summary: 'One turn of a conversation with the agent about an organization',
    description:
      'The agent reads with the caller’s permissions; write and destructive tools wait as ' +
      '`pendingConfirmations` (writes only while AGENT_CONFIRM_WRITE_OPERATIONS is not false) ' +
      'until `POST /v1/agent/confirm`. A turn makes at most AGENT_MAX_TOOL_ROUNDS rounds of ' +
      'tools (`truncated: true` when it stopped there). `history` seeds a new conversation. ' +
      'Another user’s or organization’s conversation is 404; the organization’s main ' +
      'conversation (`mainConversationId` of the context) is any member’s. 503 when the ' +
      'language model cannot be reached after its retries.',
  })
  @ApiOkResponse({ type: ChatView })
  @ApiNotFoundResponse({ description: 'No such conversation of the caller in this organization' })
  @ApiErrors([429, LIMITED])
  @ApiKeyedErrors('agentUnavailable')
  turn(
    @Req() req: Request,
    @Access() access: AccessContext,
    @Body() dto: ChatDto,
  ): Promise<ChatView> {
    return this.chat.turn(req, access, dto);
  }

  @Post('confirm')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Confirm (run) or reject a pending step',
    description:
      'Runs the step’s route as the confirming person after checking their current permission ' +
      '(refused: 200 `failed` with `error`, the step decided). Steps of the main conversation ' +
      'may be decided by any member. A step waits AGENT_PENDING_TTL_MINUTES (default 60).',
  })
  @ApiOkResponse({ type: ConfirmView })
  @ApiNotFoundResponse({ description: 'No such step, or another user’s' })
  @ApiConflictResponse({ description: 'The step is decided or has expired' })
  @ApiErrors([429, LIMITED])
  confirm(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @Body() dto: ConfirmDto,
  ): Promise<ConfirmView> {
    return this.steps.decide(req, userId, dto.stepId, dto.confirmed);
  }
}
