import type { OrganizationEventType } from '../events';
import type { PermissionName } from '../organizations';

/**
 * Who may read an activity entry: holders of `permission` in their role, and `members` (the
 * members it is about, who see their own records without that permission).
 */
export interface Audience {
  permission: PermissionName;
  members: readonly string[];
}

/**
 * The permission an entry derived from an event needs: the one that guards the read route of the
 * record the event carries (an entry shows that record, so it reaches no one the route would
 * refuse). Typed by EventType, so a new event type does not compile until it has an audience.
 */
export const EVENT_AUDIENCE: Readonly<Record<OrganizationEventType, PermissionName>> = {
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
  'security.created': 'canViewOrganization',
  'security.updated': 'canViewOrganization',
  'security.deleted': 'canViewOrganization',
  // The class and the ratio; the holders' new quantities are in their shareholdings.
  'security.split': 'canViewOrganization',
  'legend.created': 'canViewCapTable',
  'legend.updated': 'canViewCapTable',
  'legend.deleted': 'canViewCapTable',
  'plan.created': 'canViewOrganization',
  'plan.updated': 'canViewOrganization',
  'plan.deleted': 'canViewOrganization',
  'vesting_schedule.created': 'canViewOrganization',
  'vesting_schedule.updated': 'canViewOrganization',
  'vesting_schedule.deleted': 'canViewOrganization',
  // As the shareholding list: every holding with the role permission, else one's own.
  'shareholding.created': 'canViewCapitalizationOrSelf',
  'shareholding.updated': 'canViewCapitalizationOrSelf',
  'shareholding.voided': 'canViewCapitalizationOrSelf',
  // Carries both sides of the transfer; neither holder may read the other's shareholding.
  'shareholding.transferred': 'canViewCapitalizationOrSelf',
  // Counts of a whole import and its file.
  'shareholding.imported': 'canViewCapTable',
  'holding.created': 'canViewHolding',
  'holding.updated': 'canViewHolding',
  'holding.deleted': 'canViewHolding',
  'holding.converted': 'canViewHolding',
  'holding.repaid': 'canViewHolding',
  'option.exercise_requested': 'canViewOption',
  'option.exercise_request_rejected': 'canViewOption',
  'option.exercised': 'canViewOption',
  'valuation.created': 'canViewValuation',
  'valuation.updated': 'canViewValuation',
  'capital_change.created': 'canViewCapTable',
  'capital_change.updated': 'canViewCapTable',
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

/** Entries written with `POST .../action` are the members' own notes: the whole organization. */
export const WRITTEN_ENTRY_AUDIENCE: Audience = { permission: 'canViewOrganization', members: [] };

/**
 * The audience of an event's entry. A type this process does not know (an event recorded by a
 * newer version) is shown only to those who may edit the organization.
 */
export function audienceOf(type: string, subjects: readonly string[] | undefined): Audience {
  const permission = EVENT_AUDIENCE[type as OrganizationEventType] ?? 'canEditOrganization';
  return { permission, members: [...new Set(subjects ?? [])] };
}
