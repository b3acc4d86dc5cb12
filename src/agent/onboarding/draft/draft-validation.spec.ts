import { MAX_DRAFT_ERRORS, validateDraft } from './draft-validation';
import { fullDraftInput } from './draft-fixture';
import { OnboardingDraft } from './onboarding-draft.dto';

type Input = ReturnType<typeof fullDraftInput> & Record<string, unknown>;

function errorsOf(input: unknown): string[] {
  const result = validateDraft(input);
  if (!('errors' in result)) throw new Error('expected the draft to be refused');
  return result.errors;
}

function draftOf(input: unknown): OnboardingDraft {
  const result = validateDraft(input);
  if ('errors' in result) throw new Error(result.errors.join('\n'));
  return result.draft;
}

const changed = (change: (d: Input) => void): Input => {
  const d = fullDraftInput() as Input;
  change(d);
  return d;
};

describe('validateDraft', () => {
  it('accepts the full draft, numbers as exact decimal strings, null as absent', () => {
    const draft = draftOf(fullDraftInput());
    expect(draft).toBeInstanceOf(OnboardingDraft);
    expect(draft.shareholdings[1].quantity).toBe('4000000');
    expect(draft.questions[0].item_id).toBeUndefined();
    expect(draft.people.map((p) => p.id)).toEqual(['alice', 'bob', 'seed', 'carol', 'dan']);
  });

  it('defaults every list to empty', () => {
    const draft = draftOf({ organization: { confidence: 0.2 } });
    expect(draft.people).toEqual([]);
    expect(draft.optionGrants).toEqual([]);
    expect(draft.questions).toEqual([]);
  });

  it('refuses a date that is not a calendar date', () => {
    const input = changed((d) => (d.shareholdings[0].date = '2023-02-30'));
    expect(errorsOf(input)).toEqual(['shareholdings.0.date: must be a date YYYY-MM-DD']);
  });

  it('refuses a negative quantity, naming the field by its path', () => {
    const input = changed((d) => (d.optionGrants[0].quantity = '-5'));
    expect(errorsOf(input)).toEqual([
      expect.stringMatching(/^optionGrants\.0\.quantity: must be a non-negative decimal/),
    ]);
  });

  it('refuses members the draft does not have, at the top and in an item', () => {
    const input = changed((d) => {
      d.valuations = [];
      (d.people[0] as Record<string, unknown>).salary = '100000';
    });
    expect(errorsOf(input)).toEqual([
      'valuations: should not exist',
      'people.0.salary: should not exist',
    ]);
  });

  it('refuses more than 500 items in a list', () => {
    const many = Array.from({ length: 501 }, (_, i) => ({
      id: `p${i}`,
      name: `P ${i}`,
      confidence: 1,
    }));
    expect(errorsOf(changed((d) => (d.people = many)))).toEqual([
      'people: must contain no more than 500 elements',
    ]);
  });

  it('refuses a discount over 1, a confidence over 1, an unknown enum value, an id over 64', () => {
    const input = changed((d) => {
      d.convertibles[0].discount = '20';
      d.people[0].confidence = 1.5;
      d.shareClasses[0].class_type = 'ORDINARY';
      d.vestingSchedules[0].id = 'x'.repeat(65);
    });
    expect(errorsOf(input).sort()).toEqual([
      'convertibles.0.discount: must be a fraction from 0 to 1 (0.2 is 20%)',
      'people.0.confidence: must not be greater than 1',
      expect.stringMatching(
        /^shareClasses\.0\.class_type: must be one of the following values: COMMON, PREFERRED/,
      ),
      'vestingSchedules.0.id: must be shorter than or equal to 64 characters',
    ]);
  });

  it('refuses what is not an object, and a missing organization', () => {
    expect(errorsOf([])).toEqual(['the draft must be a JSON object']);
    expect(errorsOf({})).toEqual(['organization: must be an object']);
  });

  it(`reports at most ${MAX_DRAFT_ERRORS} reasons`, () => {
    const bad = Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, confidence: 1 }));
    const errors = errorsOf(changed((d) => (d.people = bad as never)));
    expect(errors).toHaveLength(MAX_DRAFT_ERRORS);
    expect(errors[0]).toBe('people.0.name: must be a string');
  });
});
