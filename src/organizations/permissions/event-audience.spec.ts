import type { AccessContext } from '../../common';
import {
  EVENT_TYPES,
  isAccountEventType,
  OrganizationEventType,
  PUBLIC_EVENT_TYPES,
} from '../../events';
import { audienceOf, EVENT_AUDIENCE, eventReaderOf, firstUnreadableType } from './event-audience';
import { BUILT_IN_ROLES, PERMISSIONS } from './permissions';

/** The types an organization's activity log may hold (account events never become entries). */
const ORGANIZATION_TYPES = EVENT_TYPES.filter(
  (t): t is OrganizationEventType => !isAccountEventType(t),
);

const accessOf = (permissions: readonly string[], memberId: string | null = 'm-1') =>
  ({ memberId, permissions: new Set(permissions) }) as unknown as AccessContext;

const role = (key: string) => BUILT_IN_ROLES.find((r) => r.key === key)!;

describe('event audiences', () => {
  it('every event type has a permission of the permission table', () => {
    for (const type of ORGANIZATION_TYPES) {
      expect({ type, known: PERMISSIONS.includes(EVENT_AUDIENCE[type]) }).toEqual({
        type,
        known: true,
      });
    }
  });

  it('a Shareholder’s role reads no holding, member, valuation or document event by permission', () => {
    const shareholder = role('shareholder');
    const readable = ORGANIZATION_TYPES.filter((t) =>
      shareholder.permissions.includes(EVENT_AUDIENCE[t]),
    ).filter((t) => /^(shareholding|holding|option|member|valuation|document|legend)\./.test(t));
    expect(readable).toEqual([]);
  });

  it('an unknown type is for editors of the organization; subjects are kept once', () => {
    expect(audienceOf('future.thing', ['a', 'b', 'a'])).toEqual({
      permission: 'canEditOrganization',
      members: ['a', 'b'],
    });
    expect(audienceOf('shareholding.created', undefined)).toEqual({
      permission: 'canViewCapitalizationOrSelf',
      members: [],
    });
  });

  it('the event log reader: the catalogue types of the role’s permissions, and the caller’s member', () => {
    const shareholder = eventReaderOf(accessOf(role('shareholder').permissions));
    expect({ ...shareholder, allOf: [...shareholder.allOf].sort() }).toEqual({
      allOf: [
        'organization.created',
        'organization.updated',
        'role.created',
        'role.deleted',
        'role.updated',
        'security.created',
        'security.deleted',
        'security.updated',
      ],
      subjectOf: ['m-1'],
    });
    expect(eventReaderOf(accessOf(role('owner').permissions)).allOf).toEqual(PUBLIC_EVENT_TYPES);
    expect(eventReaderOf(accessOf(role('viewer').permissions)).allOf).toEqual(
      PUBLIC_EVENT_TYPES.filter((t) => !/^(subscription|payment)\./.test(t)),
    );
    expect(eventReaderOf(accessOf([], null))).toEqual({ allOf: [], subjectOf: [] });
  });

  it('a subscription needs the full permission of each type, named for the first missing', () => {
    const keeper = accessOf(['canViewOrganization', 'canEditOrganization']);
    expect(firstUnreadableType(keeper, ['organization.updated', 'role.created'])).toBeUndefined();
    expect(firstUnreadableType(keeper, ['organization.updated', 'valuation.created'])).toEqual({
      type: 'valuation.created',
      permission: 'canViewValuation',
    });
    expect(firstUnreadableType(keeper, ['shareholding.created'])).toEqual({
      type: 'shareholding.created',
      permission: 'canViewCapitalizationOrSelf',
    });
    expect(firstUnreadableType(accessOf(role('admin').permissions), PUBLIC_EVENT_TYPES)).toBe(
      undefined,
    );
  });
});
