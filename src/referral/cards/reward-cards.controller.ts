import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, Authenticated, CurrentUserId } from '../../common';
import { RevealRewardDto, RewardCardView } from './card.view';
import { RewardCards } from './reward-cards.service';

@ApiTags('referral')
@Controller('v1')
export class RewardCardsController {
  constructor(private readonly cards: RewardCards) {}

  @Get('card')
  @Authenticated()
  @ApiOperation({
    summary: 'The caller’s reward cards, newest first',
    description:
      'A card is earned when an organization created by someone who registered with the ' +
      'caller’s referral code makes its first successful payment (a signup alone earns ' +
      'nothing; one card per invitee). Its `value` is null until revealed.',
  })
  @ApiOkResponse({ type: [RewardCardView] })
  list(@CurrentUserId() userId: string): Promise<RewardCardView[]> {
    return this.cards.list(userId);
  }

  @Post('reward')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Reveal a reward card',
    description:
      'Shows the value and credits it to the caller’s personal entity, once: revealing again ' +
      'answers the same value and credits nothing. `rewardId` is the card’s id.',
  })
  @ApiOkResponse({ type: RewardCardView })
  @ApiErrors(
    [403, 'The card is another user’s `{error, message}`'],
    [404, 'No such card `{error, message}`'],
  )
  reveal(@CurrentUserId() userId: string, @Body() dto: RevealRewardDto): Promise<RewardCardView> {
    return this.cards.reveal(userId, dto.rewardId);
  }
}
