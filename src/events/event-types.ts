import { LEDGER_EVENTS } from './ledger-events.generated';

/**
 * The domain event types recorded outside the ledger's transaction definitions (whose own come
 * from the registry: ledger-events.generated.ts), `{resource}.{action}` (spec section 6).
 */
const OTHER_EVENT_TYPES = [
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'member.invited',
  'member.added',
  'member.updated',
  'member.removed',
  'role.created',
  'role.updated',
  'role.deleted',
  'shareholding.imported',
  'document.uploaded',
  'document.moved',
  'document.deleted',
  'folder.created',
  'billing.shareholder_count_changed',
  'billing.member_count_changed',
  'subscription.created',
  'subscription.cancelled',
  'payment.succeeded',
  'payment.failed',
  'webhook.disabled',
  'user.registered',
] as const;

/** The event types of the ledger's transactions (see scripts/ledger-events.ts). */
export type LedgerEventType = (typeof LEDGER_EVENTS)[number]['type'];

/**
 * Every domain event type the service records. A producer can only record one of these, so
 * whatever reads events by type (the activity log's audiences, outbound webhooks) is checked by
 * the compiler to know them all.
 */
export type EventType = (typeof OTHER_EVENT_TYPES)[number] | LedgerEventType;

export const EVENT_TYPES: readonly EventType[] = [
  ...OTHER_EVENT_TYPES,
  ...LEDGER_EVENTS.map((e) => e.type),
];

/**
 * Events of an account rather than an organization (recorded with organization null): never an
 * activity entry nor an outbound delivery; consumed only by the queues that route them.
 */
export const ACCOUNT_EVENT_TYPES = ['user.registered'] as const satisfies readonly EventType[];

export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

export const isAccountEventType = (type: string): type is AccountEventType =>
  (ACCOUNT_EVENT_TYPES as readonly string[]).includes(type);

/** The event types recorded for an organization (an activity entry each). */
export type OrganizationEventType = Exclude<EventType, AccountEventType>;
