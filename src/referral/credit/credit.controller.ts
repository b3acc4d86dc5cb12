import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyedErrors, CurrentUserId, PageQuery, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { CreditTransferDto } from './credit.dto';
import { CreditEntryView, CreditTransferView } from './credit.view';
import { CreditLedger } from './credit-ledger.service';

/**
 * Who controls an entity's credit: the owner of a personal entity; for an organization's entity,
 * its members whose role holds `canEditOrganizationBilling`.
 */
const CONTROLS_ENTITY =
  'A personal entity’s credit is its owner’s alone; an organization entity’s is for members ' +
  'with `canEditOrganizationBilling`. Others get 403, an unknown entity 404.';

@ApiTags('referral')
@Controller('v1')
export class CreditController {
  constructor(private readonly ledger: CreditLedger) {}

  @Post('credit/transfer')
  @Idempotent()
  @Permission('canEditOrganizationBilling', { record: 'entity', bodyRecord: 'fromEntity' })
  @ApiOperation({
    summary: 'Move credit from one entity to another',
    description:
      `The caller must control \`fromEntity\`. ${CONTROLS_ENTITY} \`toEntity\` is any user’s ` +
      'personal entity or any organization’s entity (404 otherwise). Both sides are written ' +
      'in one transaction under the source’s lock, so concurrent transfers never overdraw. ' +
      'Credit reaching an organization’s entity while it has a live subscription is applied to ' +
      'its invoices at once (a `redemption` in its history; a `redemption_reversal` gives it ' +
      'back if the billing provider refuses it, and one the provider could not be reached for ' +
      'is sent again later).',
  })
  @ApiCreatedResponse({ type: CreditTransferView })
  @ApiKeyedErrors('insufficientCredit', 'invalidFields')
  transfer(
    @CurrentUserId() userId: string,
    @Body() dto: CreditTransferDto,
  ): Promise<CreditTransferView> {
    return this.ledger.transfer(userId, dto);
  }

  @Get('entity/:entity/history')
  @Permission('canEditOrganizationBilling', { record: 'entity' })
  @ApiOperation({
    summary: 'The entity’s credit movements, newest first',
    description: `${CONTROLS_ENTITY} Paged with \`limit\` (default 100) and \`offset\`.`,
  })
  @ApiOkResponse({ type: [CreditEntryView] })
  history(@Param('entity') entityId: string, @Query() page: PageQuery): Promise<CreditEntryView[]> {
    return this.ledger.history(entityId, page);
  }
}
