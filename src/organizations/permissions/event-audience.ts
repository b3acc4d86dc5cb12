import type { AccessContext } from '../../common';
import { LEDGER_EVENTS, PUBLIC_EVENT_TYPES } from '../../events';
import type { EventReader, LedgerEventType, OrganizationEventType } from '../../events';
import type { PermissionName } from './permissions';

/**
 * Who may read a recorded event, wherever it is shown (its activity entry, the event list, one
 * event, a webhook's subscription): holders of `permission` in their role, and `members` (the
 * members it is about, who see their own records without that permission). Decided here alone.
 */
export interface Audience {
  permission: PermissionName;
  members: readonly string[];
}

/**
 * The permission that reads an event: the one that guards the read route of the record the event
 * carries (an activity entry or the event list shows that record, so it reaches no one the route
 * would refuse). Typed by EventType, so a new event type does not compile until it has an
 * audience: the ledger's transactions give theirs in their definitions (LEDGER_EVENTS), the
 * others are listed here.
 */
const OTHER_AUDIENCES: Readonly<
  Record<Exclude<OrganizationEventType, LedgerEventType>, PermissionName>
> = {
  'organization.created': 'canViewOrganization',
  'organization.updated': 'canViewOrganization',
  'organization.deleted': 'canViewOrganization',
  // Member records carry names and e-mails: GET .../member/:member needs canViewMember.
  'member.invited': 'canViewMember',
  'member.added': 'canViewMember',
  'member.updated': 'canViewMember',
  'member.removed': 'canViewMember',
  'role.created': 'canViewOrganization',
  'role.updated': 'canViewOrganization',
  'role.deleted': 'canViewOrganization',
  // Counts of a whole import and its file.
  'shareholding.imported': 'canViewCapTable',
  'document.uploaded': 'canViewDocuments',
  'document.moved': 'canViewDocuments',
  'document.deleted': 'canViewDocuments',
  'folder.created': 'canViewDocuments',
  'billing.shareholder_count_changed': 'canEditOrganizationBilling',
  'billing.member_count_changed': 'canEditOrganizationBilling',
  // As the subscription list: its readers are those who may edit the billing.
  'subscription.created': 'canEditOrganizationBilling',
  'subscription.cancelled': 'canEditOrganizationBilling',
  'payment.succeeded': 'canEditOrganizationBilling',
  'payment.failed': 'canEditOrganizationBilling',
  // A notice for those who can re-enable the endpoint.
  'webhook.disabled': 'canEditOrganization',
};

export const EVENT_AUDIENCE: Readonly<Record<OrganizationEventType, PermissionName>> = {
  ...OTHER_AUDIENCES,
  ...(Object.fromEntries(
    (LEDGER_EVENTS satisfies readonly { audience: PermissionName }[]).map((e) => [
      e.type,
      e.audience,
    ]),
  ) as Record<LedgerEventType, PermissionName>),
};

/**
 * The audience of an event. A type this process does not know (an event recorded by a newer
 * version) is shown only to those who may edit the organization.
 */
export function audienceOf(type: string, subjects: readonly string[] | undefined): Audience {
  const permission = EVENT_AUDIENCE[type as OrganizationEventType] ?? 'canEditOrganization';
  return { permission, members: [...new Set(subjects ?? [])] };
}

/**
 * What the caller reads of the event log, by the same rule: every event of a type whose
 * permission their role holds, and the events about their member record. The guard's
 * `AccessContext.permissions` are the role's (the self scope of "...OrSelf" is not in them), and
 * the caller's member is their one record in the organization (one per user and organization).
 */
export function eventReaderOf(access: AccessContext): EventReader {
  return {
    allOf: PUBLIC_EVENT_TYPES.filter((type) =>
      access.permissions.has(audienceOf(type, []).permission),
    ),
    subjectOf: access.memberId ? [access.memberId] : [],
  };
}

/**
 * The first of `types` whose events the caller's role may not read in full, with the permission
 * it lacks; undefined when it reads them all. A webhook subscriber receives every event of its
 * types, not only those about itself: being a subject does not count here.
 */
export function firstUnreadableType(
  access: AccessContext,
  types: readonly string[],
): { type: string; permission: PermissionName } | undefined {
  for (const type of types) {
    const { permission } = audienceOf(type, []);
    if (!access.permissions.has(permission)) return { type, permission };
  }
  return undefined;
}
