import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, Authenticated, CurrentUserId } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { CATALOGUE_LIMIT, CATALOGUE_TTL_MS, CatalogueService } from './catalogue.service';
import { MemberPricingView, ProductView } from './catalogue.view';

const KEPT =
  `The provider's answer is kept ${CATALOGUE_TTL_MS / 60_000} minutes (a change of the plans ` +
  `shows within that time). At most ${CATALOGUE_LIMIT.limit} catalogue reads a minute per user, ` +
  'this route and the other catalogue route together.';

const TOO_MANY: [number, string] = [
  429,
  `More than ${CATALOGUE_LIMIT.limit} catalogue reads in a minute (\`Retry-After\` in seconds, ` +
    '`X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`: the end of the window ' +
    'as a unix timestamp)',
];

@ApiTags('billing')
@Controller('v1/billing')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get('product')
  @Authenticated()
  @ApiOperation({ summary: 'The plans on sale, cheapest first', description: KEPT })
  @ApiOkResponse({ type: [ProductView] })
  @ApiErrors(TOO_MANY)
  @ApiProviderErrors()
  products(@CurrentUserId() userId: string): Promise<ProductView[]> {
    return this.catalogue.products(userId);
  }

  @Get('member/pricing')
  @Authenticated()
  @ApiOperation({
    summary: 'The price tiers of the seats (members and shareholders)',
    description: KEPT,
  })
  @ApiOkResponse({ type: MemberPricingView })
  @ApiErrors(TOO_MANY)
  @ApiProviderErrors()
  memberPricing(@CurrentUserId() userId: string): Promise<MemberPricingView> {
    return this.catalogue.memberPricing(userId);
  }
}
