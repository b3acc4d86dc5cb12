import { checkDraft } from './draft-check';
import { nameFromEmail, withDefaults } from './draft-defaults';
import { validateDraft } from './draft-validation';
import type { OnboardingDraft } from './onboarding-draft.dto';

const today = '2025-01-02';

function draftOf(input: unknown): OnboardingDraft {
  const result = validateDraft(input);
  if ('errors' in result) throw new Error(result.errors.join('\n'));
  return result.draft;
}

/** "Alice and I each have 4M shares; Carol has options on 100k from our 1M plan." */
const sparse = () =>
  draftOf({
    organization: { confidence: 0.3 },
    people: [
      { id: 'me', name: 'Mia Founder', confidence: 0.9 },
      { id: 'alice', name: 'Alice Smith', confidence: 0.9 },
      { id: 'carol', name: 'Carol White', confidence: 0.8 },
    ],
    shareholdings: [
      { id: 's1', stakeholder_id: 'me', quantity: '4000000', confidence: 0.9 },
      { id: 's2', stakeholder_id: 'alice', quantity: '4000000', confidence: 0.9 },
    ],
    optionPlans: [
      { id: 'plan', plan_name: 'Plan', initial_shares_reserved: '3000000', confidence: 0.7 },
    ],
    optionGrants: [
      {
        id: 'g1',
        stakeholder_id: 'carol',
        stock_plan_id: 'plan',
        quantity: '100000',
        exercise_price: '0.1',
        confidence: 0.7,
      },
    ],
  });

describe('withDefaults', () => {
  it('fills what a new organization is usually given, listing each field, and the draft then builds', () => {
    const input = sparse();
    const { draft, defaulted } = withDefaults(input, { email: 'mia@acme.io', today });
    expect(draft.organization).toMatchObject({ name: 'Acme', currency: 'USD' });
    expect(draft.shareClasses).toEqual([
      expect.objectContaining({
        id: 'common',
        name: 'Common',
        class_type: 'COMMON',
        initial_shares_authorized: '11000000',
      }),
    ]);
    expect(draft.shareholdings.map((s) => [s.stock_class_id, s.date])).toEqual([
      ['common', today],
      ['common', today],
    ]);
    expect(draft.optionPlans[0].stock_class_id).toBe('common');
    expect(draft.optionGrants[0].date).toBe(today);
    expect(draft.people.map((p) => p.stakeholder_type)).toEqual([
      'INDIVIDUAL',
      'INDIVIDUAL',
      'INDIVIDUAL',
    ]);
    expect(defaulted).toEqual(
      expect.arrayContaining([
        { collection: 'organization', index: null, fieldPath: 'name' },
        { collection: 'organization', index: null, fieldPath: 'currency' },
        { collection: 'shareClasses', index: 0, fieldPath: 'initial_shares_authorized' },
        { collection: 'shareholdings', index: 1, fieldPath: 'stock_class_id' },
        { collection: 'shareholdings', index: 1, fieldPath: 'date' },
        { collection: 'optionPlans', index: 0, fieldPath: 'stock_class_id' },
      ]),
    );
    expect(defaulted).toHaveLength(15);
    // Nothing invented: the same people and quantities; the input untouched.
    expect(draft.people).toHaveLength(3);
    expect(draft.shareholdings.map((s) => s.quantity)).toEqual(['4000000', '4000000']);
    expect(input.shareClasses).toEqual([]);
    expect(input.organization.name).toBeUndefined();
    expect(checkDraft(draft, { currency: 'USD', fractional: false, today }).problems).toEqual([]);
  });

  it('authorizes at least 10,000,000, and uses a common class the draft has', () => {
    const small = sparse();
    small.shareholdings.forEach((s) => (s.quantity = '1000'));
    small.optionPlans[0].initial_shares_reserved = '1000';
    expect(
      withDefaults(small, { email: 'x@acme.io', today }).draft.shareClasses[0]
        .initial_shares_authorized,
    ).toBe('10000000');
    const withClass = sparse();
    withClass.shareClasses.push(
      draftOf({
        organization: { confidence: 1 },
        shareClasses: [
          {
            id: 'ord',
            name: 'Ordinary',
            class_type: 'COMMON',
            initial_shares_authorized: '20000000',
            confidence: 1,
          },
        ],
      }).shareClasses[0],
    );
    const { draft } = withDefaults(withClass, { email: 'x@acme.io', today });
    expect(draft.shareClasses.map((c) => c.id)).toEqual(['ord']);
    expect(draft.shareholdings[0].stock_class_id).toBe('ord');
  });

  it('keeps what the model said', () => {
    const input = sparse();
    input.organization.name = 'Zeta Labs';
    input.shareholdings[0].date = '2020-05-05';
    const { draft, defaulted } = withDefaults(input, { email: 'mia@acme.io', today });
    expect(draft.organization.name).toBe('Zeta Labs');
    expect(draft.shareholdings[0].date).toBe('2020-05-05');
    expect(defaulted).not.toContainEqual({
      collection: 'organization',
      index: null,
      fieldPath: 'name',
    });
  });
});

describe('nameFromEmail', () => {
  it('names the company after the domain, not a webmail provider', () => {
    expect(nameFromEmail('mia@acme.io')).toBe('Acme');
    expect(nameFromEmail('mia@mail.acme-labs.co.uk')).toBe('Acme Labs');
    expect(nameFromEmail('mia@gmail.com')).toBeUndefined();
    expect(nameFromEmail('mia@mail.com')).toBeUndefined();
    expect(nameFromEmail('mia')).toBeUndefined();
  });
});
