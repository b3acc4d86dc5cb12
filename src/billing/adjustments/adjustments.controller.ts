import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiValidationError, Permission } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { AdjustmentDto } from './adjustment.dto';
import { AdjustmentView } from './adjustment.view';
import { AdjustmentsService } from './adjustments.service';

@ApiTags('billing')
@Controller('v1/subscriptions/:subscription/adjustments')
export class AdjustmentsController {
  constructor(private readonly adjustments: AdjustmentsService) {}

  @Post()
  @Permission('canReadSite')
  @ApiOperation({
    summary: 'Credit (negative amount) or charge (positive) a subscription',
    description:
      'Site administrators only, so that no billing editor credits their own organization. ' +
      '`:subscription` is our id.',
  })
  @ApiCreatedResponse({ type: AdjustmentView })
  @ApiValidationError()
  @ApiNotFoundResponse({ description: 'No such subscription' })
  @ApiProviderErrors()
  create(
    @Param('subscription') subscription: string,
    @Body() dto: AdjustmentDto,
  ): Promise<AdjustmentView> {
    return this.adjustments.create(subscription, dto);
  }
}
