import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { TransactionView } from './transaction.view';
import { ListTransactionsQuery, TransactionsService } from './transactions.service';

@ApiTags('cap table')
@Controller('v1/organization/:organization/transaction')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @Permission('canViewCapTable')
  @ApiOperation({
    summary:
      'The equity transaction log, in recording order (`?limit` default 100, at most 1000; `?offset`)',
    description:
      'Not in the specification’s tables: the audit trail of the cap table. Every change is one ' +
      'transaction that is never changed or deleted (a correction is a new one). Types follow Open ' +
      'Cap Format (TX_STOCK_ISSUANCE, TX_STOCK_TRANSFER, TX_STOCK_CANCELLATION, ' +
      'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT ...) plus this service’s record types.',
  })
  @ApiOkResponse({ type: [TransactionView], description: 'The transactions, in recording order' })
  list(
    @Access() access: AccessContext,
    @Query() query: ListTransactionsQuery,
  ): Promise<TransactionView[]> {
    return this.transactions.list(access.organizationId!, query);
  }
}
