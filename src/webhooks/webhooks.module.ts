import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail';
import { OrganizationsModule } from '../organizations';
import { DeliveryRetention } from './delivery/delivery-retention';
import { EndpointDisabler } from './delivery/endpoint-disabler';
import { WebhookActionsController } from './delivery/webhook-actions.controller';
import { WebhookActions } from './delivery/webhook-actions.service';
import { WebhookAttempt } from './delivery/webhook-attempt.entity';
import { WebhookConsumer } from './delivery/webhook.consumer';
import { WebhookDeliveries } from './delivery/webhook-deliveries.service';
import { WebhookDelivery } from './delivery/webhook-delivery.entity';
import { WebhookSender } from './delivery/webhook-sender';
import { WebhookSweep } from './delivery/webhook-sweep';
import { EventsController } from './events.controller';
import { WebhookHostResolver } from './host-resolver';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookSecrets } from './webhook-secrets';

/**
 * Outbound events (spec section 6): the event list, the organizations' webhook endpoints, and the
 * signed delivery of the catalogue's events to them with retries.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt]),
    MailModule,
    OrganizationsModule,
  ],
  controllers: [EventsController, WebhookEndpointsController, WebhookActionsController],
  providers: [
    WebhookEndpointsService,
    WebhookHostResolver,
    WebhookSecrets,
    WebhookSender,
    WebhookDeliveries,
    EndpointDisabler,
    WebhookActions,
    WebhookConsumer,
    WebhookSweep,
    DeliveryRetention,
  ],
})
export class WebhooksModule {}
