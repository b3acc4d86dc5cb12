import { BULL_MODULE_QUEUE } from '@nestjs/bull/dist/bull.constants';
import { SetMetadata } from '@nestjs/common';
import type { EventType } from './event-types';
import type { QueueName } from './queues';

/** An event type a consumer handles, or a rule that picks the types (every `billing.*` ...). */
export type EventFilter = EventType | ((type: string) => boolean);

export const ON_DOMAIN_EVENT = 'ledgerline:onDomainEvent';

/** Every consumer class declared so far (at import), whether or not this process composes it. */
const DECLARED: { target: object; filters: readonly EventFilter[] }[] = [];

/**
 * Declares the domain events a queue consumer (a `@Processor(QueueName.X)` class) handles: the
 * relay hands each committed event to the queues whose consumers declare it. Declared on the class
 * itself, so what a consumer handles is read where it is handled, and an event stays pending while
 * a consumer that declares it is not running in this process (a module not composed).
 */
export const OnDomainEvent =
  (...filters: EventFilter[]): ClassDecorator =>
  (target) => {
    DECLARED.push({ target, filters });
    SetMetadata(ON_DOMAIN_EVENT, filters)(target);
  };

/** The queue a `@Processor` class consumes. */
export const queueOf = (target: object): QueueName | undefined =>
  (Reflect.getMetadata(BULL_MODULE_QUEUE, target) as { name?: QueueName } | undefined)?.name;

const matches = (filters: readonly EventFilter[], type: string) =>
  filters.some((f) => (typeof f === 'function' ? f(type) : f === type));

/** The queues whose consumers declare `type`. */
export function queuesFor(type: string): QueueName[] {
  const queues = new Set<QueueName>();
  for (const { target, filters } of DECLARED) {
    const queue = queueOf(target);
    if (queue && matches(filters, type)) queues.add(queue);
  }
  return [...queues];
}
