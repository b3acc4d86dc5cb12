import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PageQuery, Permission } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { BillingTransactionView } from './transaction.view';
import { TransactionsService } from './transactions.service';

@ApiTags('billing')
@Controller('v1/organization/:organization/billing/transaction')
export class BillingTransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @Permission('canEditOrganizationBilling')
  @ApiOperation({ summary: 'The organization’s invoices, newest first' })
  @ApiOkResponse({ type: [BillingTransactionView] })
  @ApiProviderErrors()
  list(
    @Param('organization') organization: string,
    @Query() page: PageQuery,
  ): Promise<BillingTransactionView[]> {
    return this.transactions.list(organization, page);
  }
}
