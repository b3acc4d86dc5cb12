import type { EventType } from './event-types';
import { LEDGER_EVENTS } from './ledger-events.generated';

/** The public event types of the ledger's transactions (their definitions say so). */
type PublicLedgerEvent = Extract<(typeof LEDGER_EVENTS)[number], { public: true }>['type'];

/**
 * The catalogue: the event types the event list shows and outbound webhooks deliver. Spec
 * section 6 names 33; those of the ledger's transactions come from their definitions (a new
 * type's event is public when its definition says so). The other recorded types (`billing.*`,
 * `legend.*`, `plan.*`, …) stay internal until added here.
 */
const OTHER_PUBLIC_EVENT_TYPES = [
  'organization.created',
  'organization.updated',
  'member.invited',
  'member.added',
  'member.removed',
  'member.updated',
  'role.created',
  'role.updated',
  'role.deleted',
  'document.uploaded',
  'document.moved',
  'document.deleted',
  'folder.created',
  'subscription.created',
  'subscription.cancelled',
  'payment.succeeded',
  'payment.failed',
] as const satisfies readonly EventType[];

export type PublicEventType = (typeof OTHER_PUBLIC_EVENT_TYPES)[number] | PublicLedgerEvent;

export const PUBLIC_EVENT_TYPES: readonly PublicEventType[] = [
  ...LEDGER_EVENTS.filter((e): e is Extract<typeof e, { public: true }> => e.public).map(
    (e) => e.type,
  ),
  ...OTHER_PUBLIC_EVENT_TYPES,
];

const PUBLIC = new Set<string>(PUBLIC_EVENT_TYPES);

export const isPublicEventType = (type: string): type is PublicEventType => PUBLIC.has(type);
