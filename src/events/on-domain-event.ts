import { BULL_MODULE_QUEUE } from '@nestjs/bull/dist/bull.constants';
import { SetMetadata } from '@nestjs/common';
import type { EventType } from './event-types';

/** An event type a consumer handles, or a rule that picks the types (every `billing.*` ...). */
export type EventFilter = EventType | ((type: string) => boolean);

export const ON_DOMAIN_EVENT = 'ledgerline:onDomainEvent';

/** Every consumer class declared so far (at import), whether or not this process composes it. */
const DECLARED: { target: object; filters: readonly EventFilter[] }[] = [];

/**
 * Declares the domain events a queue consumer (a `@Processor(QueueName.X)` class) handles. Declared
 * on the class itself, so what a consumer handles is read where it is handled. The relay does not
 * route by it: it routes by the `event_route` rows the migrations write (every instance of a
 * rolling upgrade reads the same routes), and a test holds those rows equal to these declarations;
 * here it says which queues this process consumes (`EventConsumers.has`).
 */
export const OnDomainEvent =
  (...filters: EventFilter[]): ClassDecorator =>
  (target) => {
    DECLARED.push({ target, filters });
    SetMetadata(ON_DOMAIN_EVENT, filters)(target);
  };

/** The queue a `@Processor` class consumes (a QueueName, or a test's own queue). */
export const queueOf = (target: object): string | undefined =>
  (Reflect.getMetadata(BULL_MODULE_QUEUE, target) as { name?: string } | undefined)?.name;

const matches = (filters: readonly EventFilter[], type: string) =>
  filters.some((f) => (typeof f === 'function' ? f(type) : f === type));

/** The queues whose consumers declare `type` (every consumer class imported so far). */
function queuesFor(type: string): string[] {
  const queues = new Set<string>();
  for (const { target, filters } of DECLARED) {
    const queue = queueOf(target);
    if (queue && matches(filters, type)) queues.add(queue);
  }
  return [...queues].sort();
}

/**
 * The routes the code declares over `types`, as `event_route` rows: what the migrations must
 * have written (test/e2e/events/event-routes.e2e-spec.ts holds them equal).
 */
export const declaredRoutes = (types: readonly string[]): { eventType: string; queue: string }[] =>
  types.flatMap((eventType) => queuesFor(eventType).map((queue) => ({ eventType, queue })));
