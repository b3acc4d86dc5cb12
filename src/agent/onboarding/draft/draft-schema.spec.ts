import { draftInputSchema } from './draft-schema';
import { validateDraft } from './draft-validation';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  additionalProperties?: boolean;
};

/** Every object node of the schema. */
const objects = (s: Schema): Schema[] => [
  ...(s.type === 'object' ? [s] : []),
  ...Object.values(s.properties ?? {}).flatMap(objects),
  ...(s.items ? objects(s.items) : []),
];

/** One value of each required member (one item in every list). */
function sample(s: Schema): unknown {
  if (s.enum) return s.enum[0];
  if (s.type === 'object') {
    return Object.fromEntries(
      Object.entries(s.properties ?? {})
        .filter(([name, p]) => s.required?.includes(name) || p.type === 'array')
        .map(([name, p]) => [name, sample(p)]),
    );
  }
  if (s.type === 'array') return [sample(s.items!)];
  if (s.type === 'string') {
    if (s.format === 'date') return '2024-01-15';
    return s.pattern ? '1' : 'x';
  }
  if (s.type === 'number' || s.type === 'integer') return s.minimum ?? 1;
  if (s.type === 'boolean') return false;
  throw new Error(`no sample of ${JSON.stringify(s)}`);
}

describe('draftInputSchema', () => {
  const schema = draftInputSchema() as Schema;

  it('closes every object and requires the inherited confidence and id of every item', () => {
    expect(objects(schema).every((o) => o.additionalProperties === false)).toBe(true);
    expect(schema.properties!.organization.required).toEqual(['confidence']);
    for (const [name, list] of Object.entries(schema.properties!)) {
      if (list.type !== 'array' || name === 'questions') continue;
      expect(list.items!.required).toEqual(expect.arrayContaining(['confidence', 'id']));
    }
  });

  it('describes what validation accepts: a draft of its required members passes', () => {
    expect(validateDraft(sample(schema))).not.toHaveProperty('errors');
  });

  it('carries the descriptions it is given', () => {
    const described = draftInputSchema((cls, property) => `${cls}.${property}`) as Schema;
    expect(described.properties!.people.items!.properties!.confidence).toMatchObject({
      description: 'DraftPerson.confidence',
    });
  });
});
