import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../auth';
import { OrganizationsModule } from '../organizations';
import { BillingRecords } from './billing-records';
import { CatalogueController } from './catalogue/catalogue.controller';
import { CatalogueService } from './catalogue/catalogue.service';
import { AdjustmentsController } from './adjustments/adjustments.controller';
import { AdjustmentsService } from './adjustments/adjustments.service';
import { BillingCredits } from './adjustments/billing-credits.service';
import { CountPushConsumer } from './counts/count-push.consumer';
import { CountPusher } from './counts/count-pusher.service';
import { CountSweep } from './counts/count-sweep.service';
import { CountSyncRepository } from './counts/count-sync.repository';
import { CustomersService } from './customers/customers.service';
import { FeaturesController } from './features/features.controller';
import { FeaturesService } from './features/features.service';
import { PaymentProfilesController } from './payment-profiles/payment-profiles.controller';
import { PaymentProfilesService } from './payment-profiles/payment-profiles.service';
import { PromoController } from './promo/promo.controller';
import { PromoService } from './promo/promo.service';
import { BillingProvider } from './provider/billing-provider';
import { CountSync } from './store/count-sync.entity';
import { CustomerLink } from './store/customer-link.entity';
import { BillingPaymentProfile } from './store/payment-profile.entity';
import { ReceivedWebhook } from './store/received-webhook.entity';
import { SignupClaim } from './store/signup-claim.entity';
import { BillingSubscription } from './store/subscription.entity';
import { SubscriptionRepository } from './store/subscription.repository';
import { SignupClaims } from './subscriptions/signup-claims';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SubscriptionsService } from './subscriptions/subscriptions.service';
import { BillingTransactionsController } from './transactions/transactions.controller';
import { TransactionsService } from './transactions/transactions.service';
import { PaymentListeners } from './webhooks/payment-listeners';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';
import { WebhookSignatureVerifier } from './webhooks/webhook-signature.verifier';

/**
 * Billing at the provider (Maxio): the catalogue, the organizations' subscriptions and plans, the
 * entities' payment profiles, the provider's webhooks and the seat count pushes.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      CustomerLink,
      BillingSubscription,
      BillingPaymentProfile,
      ReceivedWebhook,
      CountSync,
      SignupClaim,
    ]),
    OrganizationsModule,
    UsersModule,
  ],
  controllers: [
    CatalogueController,
    FeaturesController,
    SubscriptionsController,
    PaymentProfilesController,
    AdjustmentsController,
    PromoController,
    BillingTransactionsController,
    WebhooksController,
  ],
  providers: [
    AdjustmentsService,
    BillingCredits,
    BillingProvider,
    BillingRecords,
    CatalogueService,
    CountPushConsumer,
    CountPusher,
    CountSweep,
    CountSyncRepository,
    CustomersService,
    FeaturesService,
    PaymentListeners,
    PaymentProfilesService,
    PromoService,
    WebhookSignatureVerifier,
    SignupClaims,
    SubscriptionRepository,
    SubscriptionsService,
    TransactionsService,
    WebhooksService,
  ],
  exports: [FeaturesService, BillingCredits, PaymentListeners],
})
export class BillingModule {}
