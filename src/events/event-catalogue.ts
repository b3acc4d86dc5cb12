import type { EventType } from './event-types';

/**
 * The 33 event types of spec section 6: the ones the event list shows and outbound webhooks
 * deliver. The other recorded types (`billing.*`, `legend.*`, `plan.*`, …) stay internal until
 * added here.
 */
export const PUBLIC_EVENT_TYPES = [
  'shareholding.created',
  'shareholding.updated',
  'shareholding.voided',
  'shareholding.transferred',
  'security.created',
  'security.updated',
  'security.deleted',
  'option.exercised',
  'option.exercise_requested',
  'holding.created',
  'holding.updated',
  'holding.deleted',
  'holding.converted',
  'holding.repaid',
  'valuation.created',
  'valuation.updated',
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

export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number];

const PUBLIC = new Set<string>(PUBLIC_EVENT_TYPES);

export const isPublicEventType = (type: string): type is PublicEventType => PUBLIC.has(type);
