import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EventConsumers } from './event-consumers';
import { EventRoute } from './event-route.entity';

/** The routes as read once, and what this process can do with them. */
export interface Routing {
  /** The queues an event of `type` goes to (none: nothing consumes it; it is relayed to none). */
  queuesOf(type: string): string[];
  /** The event types with a route to a queue this process does not consume: left pending here. */
  unroutable: string[];
}

/**
 * The `event_route` rows the migrations wrote, read whole (a hundred rows) once per relay tick,
 * so every instance routes by the same rows whatever version its code is.
 */
@Injectable()
export class EventRoutes {
  constructor(
    @InjectRepository(EventRoute) private readonly routes: Repository<EventRoute>,
    private readonly consumers: EventConsumers,
  ) {}

  async read(): Promise<Routing> {
    const byType = new Map<string, string[]>();
    for (const { eventType, queue } of await this.routes.find()) {
      byType.set(eventType, [...(byType.get(eventType) ?? []), queue]);
    }
    const unroutable = [...byType]
      .filter(([, queues]) => queues.some((queue) => !this.consumers.has(queue)))
      .map(([type]) => type)
      .sort();
    return { queuesOf: (type) => byType.get(type) ?? [], unroutable };
  }
}
