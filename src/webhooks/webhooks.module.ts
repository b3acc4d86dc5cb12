import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsController } from './events.controller';
import { WebhookHostResolver } from './host-resolver';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** Outbound events (spec section 6): the event list and the webhook endpoints of an organization. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint])],
  controllers: [EventsController, WebhookEndpointsController],
  providers: [WebhookEndpointsService, WebhookHostResolver],
})
export class WebhooksModule {}
