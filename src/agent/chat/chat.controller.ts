import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
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

const TURN_LIMITED =
  'A limit of the agent was reached: the caller’s chat turns per hour ' +
  '(AGENT_TURNS_PER_USER_PER_HOUR), tool calls per minute or writes per minute; or, with key ' +
  '`agentBudgetExhausted`, the organization’s language-model tokens for the UTC day ' +
  '(AGENT_ORG_DAILY_TOKENS; nothing is sent to the model, `Retry-After` runs to midnight UTC). ' +
  'Each with `Retry-After` in seconds, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, ' +
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
      'tools (`truncated: true` when it stopped there). `history` seeds a new conversation ' +
      '(400 when it and the message would be over AGENT_MAX_PROMPT_CHARS); the prompt holds ' +
      'the latest messages that fit in AGENT_MAX_PROMPT_CHARS. Another user’s or ' +
      'organization’s conversation is 404; the organization’s main conversation ' +
      '(`mainConversationId` of the context) is for members holding `canViewCapTable` (403 ' +
      'for others). There, other members’ messages reach the model marked as theirs, tool ' +
      'results produced under a permission the caller lacks are withheld, and a write or ' +
      'destructive tool called in a turn whose prompt holds another member’s message always ' +
      'waits for the caller’s confirmation, whatever AGENT_CONFIRM_WRITE_OPERATIONS says. 503 ' +
      'when the language model cannot be reached after its retries.',
  })
  @ApiOkResponse({ type: ChatView })
  @ApiForbiddenResponse({
    description: 'The organization’s main conversation, to a member without `canViewCapTable`',
  })
  @ApiNotFoundResponse({ description: 'No such conversation of the caller in this organization' })
  @ApiErrors([429, TURN_LIMITED])
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
      'Confirming runs the step’s route as the confirming person. Confirming or rejecting needs ' +
      'the permission of the step’s tool, checked now: without it 403 and the step stays ' +
      'pending, except that the person it was proposed to, having lost the permission, gets 200 ' +
      '`failed` with `error` for a confirmation (the step decided). Steps of the main ' +
      'conversation may be decided by its members (`canViewCapTable`). A step waits ' +
      'AGENT_PENDING_TTL_MINUTES (default 60).',
  })
  @ApiOkResponse({ type: ConfirmView })
  @ApiForbiddenResponse({ description: 'The caller lacks the permission of the step’s tool' })
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
