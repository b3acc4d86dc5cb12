import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  Access,
  AccessContext,
  ApiErrors,
  ApiKeyedErrors,
  Authenticated,
  CurrentUserId,
  Machine,
  Permission,
} from '../common';
import { ChatSessions } from './chat-sessions.service';
import { ChatSync } from './chat-sync.service';
import { ChatSessionDto } from './chat.dto';
import {
  ChatConfigView,
  ChatSessionView,
  SyncView,
  TeamMappingView,
  TokenHealthView,
  UserMappingView,
} from './chat.view';

const GATEWAY =
  'For the messaging gateway: `Authorization: Bearer CHAT_GATEWAY_TOKEN` (401 otherwise, and ' +
  'always while the variable is unset). 10 failed tokens from one client address within 15 ' +
  'minutes: 429 for every request from it until the window ends.';
const THROTTLED: [number, string] = [
  429,
  'Too many failed gateway tokens from this address (`Retry-After`, `X-RateLimit-*`)',
];

/** Team messaging (spec 4.3): outside `/v1`, as the messaging product's clients expect. */
@ApiTags('chat')
@Controller('api/v1/chat')
export class ChatController {
  constructor(
    private readonly sessions: ChatSessions,
    private readonly sync: ChatSync,
  ) {}

  @Get('config')
  @Authenticated()
  @ApiOperation({
    summary: 'Whether team messaging is on, and where browsers reach it',
    description: '`{enabled: false, baseUrl: null}` while CHAT_URL or CHAT_ADMIN_TOKEN is unset.',
  })
  @ApiOkResponse({ type: ChatConfigView })
  config(): ChatConfigView {
    return this.sessions.config();
  }

  @Post('session')
  @HttpCode(200)
  @Permission('canViewOrganization', { body: 'organizationId' })
  @ApiOperation({
    summary: 'A messaging session in the organization’s team',
    description:
      'Makes (or finds) the caller’s chat user, a personal access token, the organization’s ' +
      'team (an unpredictable name) with its default channels and its private channel, and ' +
      'the caller’s membership in the team (and in the private channel, where the agent ' +
      'posts, when their role holds canViewCapTable); idempotent, and concurrent calls make ' +
      'one of each. A chat account with the caller’s e-mail that is a system admin’s is never ' +
      'taken over (500 chatProvisioningFailed). The token is shown here only.',
  })
  @ApiOkResponse({ type: ChatSessionView })
  @ApiKeyedErrors('chatNotConfigured', 'chatProvisioningFailed')
  session(@Access() access: AccessContext, @Body() dto: ChatSessionDto): Promise<ChatSessionView> {
    return this.sessions.session(access.userId, dto.organizationId);
  }

  @Post('sync-org/:orgId')
  @HttpCode(200)
  @Permission('canEditOrganization', { record: 'organization', param: 'orgId' })
  @ApiOperation({
    summary: 'Bring the organization’s team in step with its members',
    description:
      'Every active member with a user account joins the team; team members mapped to users ' +
      'who are no longer members leave it (chat users the service did not map stay). The ' +
      'private channel keeps the members whose role holds canViewCapTable and no one else. ' +
      'Member changes are also synced as they happen, through the event queue.',
  })
  @ApiOkResponse({ type: SyncView })
  @ApiKeyedErrors('chatNotConfigured', 'chatSyncFailed')
  syncOrganization(@Param('orgId') orgId: string): Promise<SyncView> {
    return this.sync.syncOrganization(orgId);
  }

  @Get('token-health')
  @Authenticated()
  @ApiOperation({
    summary: 'Whether the caller’s stored messaging token still works',
    description:
      '`{valid: true}`, or `{valid: false, reason}`: `no_token`, `revoked` (the server refused ' +
      'it; it is forgotten) or `check_failed` (no answer within 5 s, or a server error).',
  })
  @ApiOkResponse({ type: TokenHealthView })
  tokenHealth(@CurrentUserId() userId: string): Promise<TokenHealthView> {
    return this.sessions.tokenHealth(userId);
  }

  @Get('team-mapping/:teamId')
  @Machine('gatewayToken')
  @ApiOperation({ summary: 'The organization of a messaging team', description: GATEWAY })
  @ApiOkResponse({ type: TeamMappingView })
  @ApiUnauthorizedResponse({ description: 'No or a wrong gateway token `{error, key, message}`' })
  @ApiNotFoundResponse({ description: 'No organization has this team' })
  @ApiErrors(THROTTLED)
  teamMapping(@Param('teamId') teamId: string): Promise<TeamMappingView> {
    return this.sessions.organizationOfTeam(teamId);
  }

  @Get('user-mapping/:chatUserId')
  @Machine('gatewayToken')
  @ApiOperation({
    summary: 'The Ledgerline user of a messaging user',
    description: `\`{userId: null}\` when none is mapped. ${GATEWAY}`,
  })
  @ApiOkResponse({ type: UserMappingView })
  @ApiUnauthorizedResponse({ description: 'No or a wrong gateway token `{error, key, message}`' })
  @ApiErrors(THROTTLED)
  userMapping(@Param('chatUserId') chatUserId: string): Promise<UserMappingView> {
    return this.sessions.userOfChatUser(chatUserId);
  }
}
