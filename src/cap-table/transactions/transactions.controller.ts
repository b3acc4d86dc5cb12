import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { TRANSACTION_ITEM } from './transaction-schemas';
import { TransactionView } from './transaction.view';
import { ListTransactionsQuery, TransactionsService } from './transactions.service';

@ApiTags('cap table')
@ApiExtraModels(TransactionView)
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
      'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT ...) plus this service’s record types. Each ' +
      'entry’s `payload` is its type’s (a `oneOf` discriminated by `type`), as the service reads ' +
      'it today: an entry logged before a field existed shows the value a replay gives it.',
  })
  @ApiOkResponse({
    schema: { type: 'array', items: TRANSACTION_ITEM },
    description: 'The transactions, in recording order',
  })
  list(
    @Access() access: AccessContext,
    @Query() query: ListTransactionsQuery,
  ): Promise<TransactionView[]> {
    return this.transactions.list(access.organizationId!, query);
  }
}
