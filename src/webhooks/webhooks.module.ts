import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';

/** Outbound events (spec section 6): the event list of an organization. */
@Module({ controllers: [EventsController] })
export class WebhooksModule {}
