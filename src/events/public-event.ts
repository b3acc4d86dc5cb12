import type { PublicEventType } from './event-catalogue';

/** A stored event as the event list and deliveries show it: the envelope without its internals. */
export interface PublicEvent {
  id: string;
  type: PublicEventType;
  api_version: string;
  created: string;
  organization: string;
  data: {
    object: Record<string, unknown>;
    previous_attributes: Record<string, unknown>;
  };
}
