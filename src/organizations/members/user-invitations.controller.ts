import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUserId } from '../../common';
import { PendingInvitationView } from '../invitations/invitation.view';
import { InvitationsService } from './invitations.service';
import { MemberView } from './member.view';

const NOT_OPEN = 'No open invitation with this id to the caller’s address';
const UNVERIFIED = 'The caller’s e-mail address is not verified';

/** The signed-in user's own invitations, to accept or decline from the app. */
@ApiTags('members')
@Controller('v1/user/invitations')
export class UserInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Open invitations to the caller’s verified e-mail address',
    description: 'Newest first; none while the address is not verified.',
  })
  @ApiOkResponse({ type: [PendingInvitationView] })
  list(@CurrentUserId() userId: string): Promise<PendingInvitationView[]> {
    return this.invitations.pendingFor(userId);
  }

  @Post(':invitation/accept')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept one: the caller becomes an active member (the member record)' })
  @ApiOkResponse({ type: MemberView, description: 'The caller’s member record, now `active`' })
  @ApiForbiddenResponse({ description: UNVERIFIED })
  @ApiNotFoundResponse({ description: NOT_OPEN })
  @ApiConflictResponse({ description: 'The caller is already a member of the organization' })
  accept(@CurrentUserId() userId: string, @Param('invitation') id: string): Promise<MemberView> {
    return this.invitations.acceptById(userId, id);
  }

  @Post(':invitation/decline')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline one: the invited member record is removed' })
  @ApiOkResponse({
    description: '`{}`: the invitation is closed (it leaves the list and cannot be accepted)',
    schema: { type: 'object', additionalProperties: false },
  })
  @ApiForbiddenResponse({ description: UNVERIFIED })
  @ApiNotFoundResponse({ description: NOT_OPEN })
  async decline(@CurrentUserId() userId: string, @Param('invitation') id: string): Promise<object> {
    await this.invitations.decline(userId, id);
    return {};
  }
}
