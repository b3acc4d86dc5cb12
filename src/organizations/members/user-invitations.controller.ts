import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUserId } from '../../common';
import { InvitationsService, PendingInvitationView } from './invitations.service';

/** The signed-in user's own invitations, to accept or decline from the app. */
@ApiTags('members')
@Controller('v1/user/invitations')
export class UserInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Open invitations to the caller’s verified e-mail address',
    description:
      '`[{id, organization: {id, name}, role: {id, name}, message, invitedBy, expiresAt, created}]`, newest first.',
  })
  list(@CurrentUserId() userId: string): Promise<PendingInvitationView[]> {
    return this.invitations.pendingFor(userId);
  }

  @Post(':invitation/accept')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept one: the caller becomes an active member (the member record)' })
  @ApiNotFoundResponse({ description: 'No open invitation with this id to the caller’s address' })
  accept(@CurrentUserId() userId: string, @Param('invitation') id: string) {
    return this.invitations.acceptById(userId, id);
  }

  @Post(':invitation/decline')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline one: the invited member record is removed' })
  @ApiOkResponse({
    description: '`{}`: the invitation is closed (it leaves the list and cannot be accepted)',
  })
  @ApiNotFoundResponse({ description: 'No open invitation with this id to the caller’s address' })
  async decline(@CurrentUserId() userId: string, @Param('invitation') id: string): Promise<object> {
    await this.invitations.decline(userId, id);
    return {};
  }
}
