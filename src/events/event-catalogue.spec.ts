import { PUBLIC_EVENT_TYPES } from './event-catalogue';
import { LEDGER_EVENTS } from './ledger-events.generated';

/** The 33 types of spec section 6, by domain as it counts them. */
const SPEC_TYPES = {
  capTable: [
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
  ],
  organizations: [
    'organization.created',
    'organization.updated',
    'member.invited',
    'member.added',
    'member.removed',
    'member.updated',
    'role.created',
    'role.updated',
    'role.deleted',
  ],
  documents: ['document.uploaded', 'document.moved', 'document.deleted', 'folder.created'],
  billing: [
    'subscription.created',
    'subscription.cancelled',
    'payment.succeeded',
    'payment.failed',
  ],
};

describe('PUBLIC_EVENT_TYPES', () => {
  it('holds the 33 types of spec section 6 once each', () => {
    expect(new Set(PUBLIC_EVENT_TYPES).size).toBe(PUBLIC_EVENT_TYPES.length);
    const spec = Object.values(SPEC_TYPES).flat();
    expect(spec).toHaveLength(33);
    expect(PUBLIC_EVENT_TYPES).toEqual(expect.arrayContaining(spec));
  });

  it('adds beyond them only the events ledger definitions declare public (a new type adds its own)', () => {
    const spec = new Set<string>(Object.values(SPEC_TYPES).flat());
    const declared = LEDGER_EVENTS.filter((e) => e.public).map((e) => e.type as string);
    const beyond = PUBLIC_EVENT_TYPES.filter((t) => !spec.has(t));
    expect(beyond.every((t) => declared.includes(t))).toBe(true);
    expect(declared.every((t) => PUBLIC_EVENT_TYPES.includes(t as never))).toBe(true);
    // Issue 36's proof: the repurchase's event is published by its definition alone.
    expect(beyond).toContain('shareholding.repurchased');
  });
});
