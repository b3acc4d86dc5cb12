import { PUBLIC_EVENT_TYPES } from './event-catalogue';

describe('PUBLIC_EVENT_TYPES', () => {
  it('holds the 33 types of spec section 6 once each, by domain as the spec counts them', () => {
    expect(new Set(PUBLIC_EVENT_TYPES).size).toBe(33);
    const resources = (...names: string[]) =>
      PUBLIC_EVENT_TYPES.filter((t) => names.includes(t.split('.')[0])).length;
    expect(resources('shareholding', 'security', 'option', 'holding', 'valuation')).toBe(16);
    expect(resources('organization', 'member', 'role')).toBe(9);
    expect(resources('document', 'folder')).toBe(4);
    expect(resources('subscription', 'payment')).toBe(4);
  });
});
