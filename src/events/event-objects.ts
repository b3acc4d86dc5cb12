import type { PublicEventType } from './event-catalogue';
import type { EventEnvelope } from './event-envelope';
import type { EventType } from './event-types';

/**
 * The `data.object` of an event type, for the types something reads the object of: each module
 * adds the types it records (declaration merging, `declare module '../events'`), with the view
 * it writes, so a consumer reads an event's object by its type (`eventObject`), never by a cast.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the producers
export interface EventObjects {}

/** The object of an event of `type`: its view where its producer declares one. */
export type EventObject<T extends EventType> = T extends keyof EventObjects
  ? EventObjects[T]
  : Record<string, unknown>;

/** The object of `event` when it is of one of `types` (typed by its type), else undefined. */
export function eventObject<T extends EventType>(
  event: Pick<EventEnvelope, 'type' | 'data'>,
  ...types: T[]
): EventObject<T> | undefined {
  // The producer of each type writes the object EventObjects declares for it (the one place
  // the envelope's untyped JSON meets its type).
  const { object } = event.data;
  return (types as string[]).includes(event.type) ? (object as EventObject<T>) : undefined;
}

const DOCUMENTED = new Map<PublicEventType, () => object>();

/**
 * The schema of the `data.object` of public event types, for the published contract (the event
 * list, deliveries): each module gives those it records, as an OpenAPI schema (a `$ref` to the
 * view it writes), made when the document is. A type given twice is refused.
 */
export function documentEventObjects(objects: Partial<Record<PublicEventType, () => object>>) {
  for (const [type, schema] of Object.entries(objects) as [PublicEventType, () => object][]) {
    if (DOCUMENTED.has(type)) throw new Error(`the object of ${type} is documented twice`);
    DOCUMENTED.set(type, schema);
  }
}

/** The documented schema of the object of `type`, if its module gave one. */
export const documentedEventObject = (type: PublicEventType): object | undefined =>
  DOCUMENTED.get(type)?.();
