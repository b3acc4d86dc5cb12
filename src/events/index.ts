export { EventsModule } from './events.module';
export { UnitOfWork } from './unit-of-work';
export type { Tx } from './unit-of-work';
export { previousAttributes } from './outbox.service';
export type { DomainEvent } from './outbox.service';
export { EventConsumers } from './event-consumers';
export { OnDomainEvent } from './on-domain-event';
export { OutboxRelay } from './outbox-relay.service';
export {
  AGENT_HEARTBEAT,
  AGENT_HOOK_RUN,
  BILLING_COUNT_PUSH,
  CREDIT_REDEMPTION,
  DRIVE_SYNC,
  ONBOARDING_ANALYSIS,
  QueueName,
  WEBHOOK_DELIVERY,
} from './queues';
export type { EventEnvelope } from './event-envelope';
export type { DriveSyncJob } from './queues';
export { documentedEventObject, documentEventObjects, eventObject } from './event-objects';
export type { EventObject, EventObjects } from './event-objects';
export { resourceVersionsSql } from './resource-versions';
export { EVENT_TYPES, isAccountEventType } from './event-types';
export type {
  AccountEventType,
  EventType,
  LedgerEventType,
  OrganizationEventType,
} from './event-types';
export { LEDGER_EVENTS } from './ledger-events.generated';
export { isPublicEventType, PUBLIC_EVENT_TYPES } from './event-catalogue';
export type { PublicEventType } from './event-catalogue';
export { EventLog } from './event-log.service';
export { newEventId } from './outbox.service';
export type { EventPage, EventReader } from './event-log.service';
export type { PublicEvent } from './public-event';
export { API_VERSION } from './event-envelope';
