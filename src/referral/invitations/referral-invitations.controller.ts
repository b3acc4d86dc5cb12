import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeyedErrors, Authenticated, clientIp, CurrentUserId } from '../../common';
import { SendInvitationDto } from './invitation.dto';
import { ReferralInvitationView } from './invitation.view';
import {
  INVITATIONS_PER_ACCOUNT,
  INVITATIONS_PER_ADDRESS,
  INVITATIONS_PER_IP,
  ReferralInvitations,
} from './referral-invitations.service';

@ApiTags('referral')
@Controller('v1/invitation')
export class ReferralInvitationsController {
  constructor(private readonly invitations: ReferralInvitations) {}

  @Post('send')
  @Authenticated()
  @ApiOperation({
    summary: 'Mail a referral invitation with the caller’s referral code',
    description:
      'One invitation per address per referrer (other referrers may invite the same address). ' +
      'The first mail answers 201; asking again within 24 hours of the last mail is 409, later ' +
      'the same invitation is mailed again (200). An address that already signed up with the ' +
      'caller’s code is 409; the caller’s own address is 400. Whether an address has an account ' +
      `is never revealed. At most ${INVITATIONS_PER_ACCOUNT.limit} mails a day per account, ` +
      `${INVITATIONS_PER_IP.limit} per client address, and ${INVITATIONS_PER_ADDRESS.limit} to ` +
      'one e-mail address in any 30 days whoever sends them (429 with `Retry-After` and ' +
      '`X-RateLimit-*`; a mail refused for its address counts against no other limit).',
  })
  @ApiCreatedResponse({ type: ReferralInvitationView, description: 'Invited and mailed' })
  @ApiOkResponse({ type: ReferralInvitationView, description: 'The invitation, mailed again' })
  @ApiConflictResponse({ description: 'Mailed less than 24 hours ago, or already signed up' })
  @ApiResponse({
    status: 429,
    description: 'Too many invitation mails today, or to this address in 30 days',
  })
  @ApiKeyedErrors('invalidFields')
  async send(
    @CurrentUserId() userId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() dto: SendInvitationDto,
  ): Promise<ReferralInvitationView> {
    const sent = await this.invitations.send(userId, clientIp(req), dto);
    if (!sent.created) res.status(200);
    return sent.invitation;
  }

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'The referral invitations the caller sent, newest first' })
  @ApiOkResponse({ type: [ReferralInvitationView] })
  list(@CurrentUserId() userId: string): Promise<ReferralInvitationView[]> {
    return this.invitations.list(userId);
  }
}
