import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, ApiValidationError, Permission } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { CancelSubscriptionQuery, SubscriptionDto } from './subscription.dto';
import { SubscriptionPreviewView, SubscriptionView } from './subscription.view';
import { SubscriptionsService } from './subscriptions.service';

@ApiTags('billing')
@Controller('v1/organization/:organization/subscription')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get()
  @Permission('canEditOrganizationBilling')
  @ApiOperation({ summary: 'The organization’s subscriptions, newest first' })
  @ApiOkResponse({ type: [SubscriptionView] })
  list(@Access() access: AccessContext): Promise<SubscriptionView[]> {
    return this.subscriptions.list(access.organizationId!);
  }

  @Post()
  @Permission('canEditOrganizationBilling')
  @ApiOperation({
    summary: 'Subscribe the organization to a plan',
    description:
      'Billed to the organization’s entity, with its current member and shareholder counts. ' +
      'A provider refusal (unknown product, price point or coupon, card declined) is a 400.',
  })
  @ApiCreatedResponse({ type: SubscriptionView })
  @ApiValidationError()
  @ApiConflictResponse({ description: 'The organization has a live subscription already' })
  @ApiProviderErrors()
  create(@Access() access: AccessContext, @Body() dto: SubscriptionDto): Promise<SubscriptionView> {
    return this.subscriptions.create(access, dto);
  }

  @Post('preview')
  @HttpCode(200)
  @Permission('canEditOrganizationBilling')
  @ApiOperation({ summary: 'What a subscription would cost now and at its first renewal' })
  @ApiOkResponse({ type: SubscriptionPreviewView })
  @ApiValidationError()
  @ApiProviderErrors()
  preview(
    @Access() access: AccessContext,
    @Body() dto: SubscriptionDto,
  ): Promise<SubscriptionPreviewView> {
    return this.subscriptions.preview(access, dto);
  }

  @Delete(':subscription')
  @Permission('canEditOrganizationBilling')
  @ApiOperation({
    summary: 'Cancel the subscription, at the end of its period or (`immediate=true`) now',
  })
  @ApiOkResponse({ type: SubscriptionView })
  @ApiConflictResponse({ description: 'The subscription has ended already' })
  @ApiProviderErrors()
  cancel(
    @Access() access: AccessContext,
    @Param('subscription') id: string,
    @Query() query: CancelSubscriptionQuery,
  ): Promise<SubscriptionView> {
    return this.subscriptions.cancel(access, id, query.immediate === true);
  }
}
