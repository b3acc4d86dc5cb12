import { PUBLIC_EVENT_TYPES } from './event-catalogue';

describe('PUBLIC_EVENT_TYPES', () => {
  it('holds the 33 types of spec section 6 and the repurchase (issue 36) once each, by domain', () => {
    expect(new Set(PUBLIC_EVENT_TYPES).size).toBe(PUBLIC_EVENT_TYPES.length);
    expect(PUBLIC_EVENT_TYPES).toHaveLength(34);
    expect(PUBLIC_EVENT_TYPES).toContain('shareholding.repurchased');
    const resources = (...names: string[]) =>
      PUBLIC_EVENT_TYPES.filter((t) => names.includes(t.split('.')[0])).length;
    expect(resources('shareholding', 'security', 'option', 'holding', 'valuation')).toBe(17);
    expect(resources('organization', 'member', 'role')).toBe(9);
    expect(resources('document', 'folder')).toBe(4);
    expect(resources('subscription', 'payment')).toBe(4);
  });
});
