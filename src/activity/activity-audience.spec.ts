import { EVENT_TYPES, isAccountEventType, OrganizationEventType } from '../events';
import { BUILT_IN_ROLES, PERMISSIONS } from '../organizations';
import { audienceOf, EVENT_AUDIENCE } from './activity-audience';

/** The types an organization's activity log may hold (account events never become entries). */
const ORGANIZATION_TYPES = EVENT_TYPES.filter(
  (t): t is OrganizationEventType => !isAccountEventType(t),
);

describe('activity audiences', () => {
  it('every event type has a permission of the permission table', () => {
    for (const type of ORGANIZATION_TYPES) {
      expect({ type, known: PERMISSIONS.includes(EVENT_AUDIENCE[type]) }).toEqual({
        type,
        known: true,
      });
    }
  });

  it('a Shareholder’s role reads no holding, member, valuation or document entry by permission', () => {
    const shareholder = BUILT_IN_ROLES.find((r) => r.key === 'shareholder')!;
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
});
