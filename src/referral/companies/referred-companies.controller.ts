import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiKeyedErrors, Authenticated, CurrentUserId } from '../../common';
import { ReferCompanyDto, ReferredCompanyView } from './company.dto';
import { ReferredCompanies } from './referred-companies.service';

@ApiTags('referral')
@Controller('v1/referral/company')
export class ReferredCompaniesController {
  constructor(private readonly companies: ReferredCompanies) {}

  @Post()
  @Authenticated()
  @ApiOperation({
    summary: 'Refer a company to the service',
    description:
      'Recorded for the caller (201). Referring a company again with the same website (its host, ' +
      'without `www.`) or the same contact e-mail answers the caller’s existing record (200). ' +
      'Other users’ referrals are never shown.',
  })
  @ApiCreatedResponse({ type: ReferredCompanyView, description: 'Recorded' })
  @ApiOkResponse({ type: ReferredCompanyView, description: 'Referred before: the existing record' })
  @ApiKeyedErrors('invalidFields')
  async refer(
    @CurrentUserId() userId: string,
    @Res({ passthrough: true }) res: Response,
    @Body() dto: ReferCompanyDto,
  ): Promise<ReferredCompanyView> {
    const { company, created } = await this.companies.refer(userId, dto);
    if (!created) res.status(200);
    return company;
  }
}
