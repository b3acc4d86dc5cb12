import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, ApiValidationError, EMPTY_OBJECT, Permission } from '../../common';
import { ApiProviderErrors } from '../provider-errors.openapi';
import { CreatePaymentProfileDto, UpdatePaymentProfileDto } from './payment-profile.dto';
import { PaymentProfileView } from './payment-profile.view';
import { PaymentProfilesService } from './payment-profiles.service';

/** `:entity` is decided by the entity record (`:profile` is a payment profile, not a user profile). */
const ENTITY_BILLING = () => Permission('canEditEntityBilling', { record: 'entity' });

@ApiTags('billing')
@Controller('v1/entity/:entity/payment/profile')
export class PaymentProfilesController {
  constructor(private readonly profiles: PaymentProfilesService) {}

  @Post()
  @ENTITY_BILLING()
  @ApiOperation({
    summary: 'Store a card (or bank account) from a token of the provider’s JS',
    description:
      'The entity’s first profile is its default. A token the provider refuses is a 400. The entity’s first use makes it the provider’s customer, once even when two requests make it at once.',
  })
  @ApiCreatedResponse({ type: PaymentProfileView })
  @ApiValidationError()
  @ApiProviderErrors()
  create(
    @Access() access: AccessContext,
    @Param('entity') entity: string,
    @Body() dto: CreatePaymentProfileDto,
  ): Promise<PaymentProfileView> {
    return this.profiles.create(access, entity, dto);
  }

  @Get()
  @ENTITY_BILLING()
  @ApiOperation({ summary: 'The entity’s payment profiles, the default first' })
  @ApiOkResponse({ type: [PaymentProfileView] })
  list(@Param('entity') entity: string): Promise<PaymentProfileView[]> {
    return this.profiles.list(entity);
  }

  @Put(':profile')
  @ENTITY_BILLING()
  @ApiOperation({ summary: 'Change a profile’s expiry or name' })
  @ApiOkResponse({ type: PaymentProfileView })
  @ApiValidationError()
  @ApiProviderErrors()
  update(
    @Param('entity') entity: string,
    @Param('profile') profile: string,
    @Body() dto: UpdatePaymentProfileDto,
  ): Promise<PaymentProfileView> {
    return this.profiles.update(entity, profile, dto);
  }

  @Put(':profile/default')
  @ENTITY_BILLING()
  @ApiOperation({
    summary: 'Make the profile the default',
    description:
      'The entity’s live subscriptions are charged to it from now on (including one signed up with another profile).',
  })
  @ApiOkResponse({ type: PaymentProfileView })
  @ApiProviderErrors()
  makeDefault(
    @Param('entity') entity: string,
    @Param('profile') profile: string,
  ): Promise<PaymentProfileView> {
    return this.profiles.makeDefault(entity, profile);
  }

  @Delete(':profile')
  @ENTITY_BILLING()
  @ApiOperation({
    summary: 'Delete a payment profile',
    description:
      'Refused while a live subscription is charged to it: the profile it was signed up with (`paymentProfileId`, else the default then), or the one made the default since. The default that no live subscription is charged to can be deleted.',
  })
  @ApiOkResponse({ description: '`{}`: the profile is gone', schema: EMPTY_OBJECT })
  @ApiConflictResponse({
    description: 'A live subscription is charged to it: nothing is deleted',
  })
  @ApiProviderErrors()
  async remove(
    @Param('entity') entity: string,
    @Param('profile') profile: string,
  ): Promise<Record<string, never>> {
    await this.profiles.remove(entity, profile);
    return {};
  }
}
