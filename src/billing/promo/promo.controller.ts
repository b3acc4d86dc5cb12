import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiValidationError, Authenticated, CurrentUserId } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { ValidatePromoDto } from './promo.dto';
import { PromoService } from './promo.service';
import { PromoView } from './promo.view';

@ApiTags('billing')
@Controller('v1/promo')
export class PromoController {
  constructor(private readonly promo: PromoService) {}

  @Post('validate')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Whether a promotion code may be used, and what it gives',
    description: 'An unknown or expired code answers 200 `{valid: false, reason}`. 10 per minute.',
  })
  @ApiOkResponse({ type: PromoView })
  @ApiValidationError()
  @ApiErrors([
    429,
    'More than 10 codes in a minute (`Retry-After` in seconds, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`: the end of the window as a unix timestamp)',
  ])
  @ApiProviderErrors()
  validate(@CurrentUserId() userId: string, @Body() dto: ValidatePromoDto): Promise<PromoView> {
    return this.promo.validate(userId, dto.code);
  }
}
