import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { CatalogueService } from './catalogue.service';
import { MemberPricingView, ProductView } from './catalogue.view';

@ApiTags('billing')
@Controller('v1/billing')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get('product')
  @Authenticated()
  @ApiOperation({ summary: 'The plans on sale, cheapest first' })
  @ApiOkResponse({ type: [ProductView] })
  @ApiProviderErrors()
  products(): Promise<ProductView[]> {
    return this.catalogue.products();
  }

  @Get('member/pricing')
  @Authenticated()
  @ApiOperation({ summary: 'The price tiers of the seats (members and shareholders)' })
  @ApiOkResponse({ type: MemberPricingView })
  @ApiProviderErrors()
  memberPricing(): Promise<MemberPricingView> {
    return this.catalogue.memberPricing();
  }
}
