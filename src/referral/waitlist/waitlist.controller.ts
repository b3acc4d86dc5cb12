import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common';
import { ReferralOverview } from '../overview/referral-overview.service';
import { WaitlistStatsView } from '../overview/referral-overview.view';

@ApiTags('referral')
@Controller('v1/waitlistStats')
export class WaitlistController {
  constructor(private readonly overview: ReferralOverview) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'How many people are on the waitlist, and the caller’s place',
    description:
      'Every registered user is on the waitlist, in order of registration. Without a session: ' +
      '`{total}`; with one, also `position` and `referralCount`.',
  })
  @ApiOkResponse({ type: WaitlistStatsView })
  stats(@Req() req: Request): Promise<WaitlistStatsView> {
    return this.overview.waitlist(req.session?.userId);
  }
}
