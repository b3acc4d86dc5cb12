import '../../support/agent-on';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { validateDraft } from '../../../src/agent/onboarding/draft';
import { FakeLlm, toolUseAnswer } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { DRAFT_TOOL, fullDraft } from '../../support/onboarding';
import { randomIp } from '../../support/users';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
};

/** A value `schema` accepts, from its required members alone (one item in every list when `lists`). */
function minimal(schema: Schema, lists: boolean): unknown {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name, s]) => schema.required?.includes(name) || (lists && s.type === 'array'))
          .map(([name, s]) => [name, minimal(s, lists)]),
      );
    case 'array':
      return [minimal(schema.items!, lists)];
    case 'string': {
      if (schema.format === 'date') return '2024-01-15';
      if (schema.format === 'email') return 'someone@example.test';
      const candidates = ['1', 'x', '2024-01-15', 'AB'];
      const fit = candidates.find((c) => !schema.pattern || new RegExp(schema.pattern).test(c));
      if (!fit) throw new Error(`no candidate value matches ${schema.pattern}`);
      return fit;
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      throw new Error(`no value for a schema of type ${schema.type}`);
  }
}

describe('the record_onboarding_draft schema is what validation accepts (issue 35 section 5)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({ env: fake.env() });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  /** Starts an onboarding whose analysis the fake answers with `draftOf(the schema it was given)`. */
  async function analyseWith(draftOf: (schema: Schema) => unknown) {
    let schema: Schema | undefined;
    fake.respondWith((request) => {
      schema = (request.body.tools![0] as { input_schema: Schema }).input_schema;
      return toolUseAnswer([{ name: DRAFT_TOOL, input: draftOf(schema) }]);
    });
    const created = await t.http
      .post('/v1/agent/onboarding/create')
      .set('X-Forwarded-For', randomIp())
      .send({ email: 'founder@rocket.test', initialPrompt: 'We are Rocket Labs.' })
      .expect(201);
    const row = await eventually(async () => {
      const res = await t.http.get(`/v1/agent/onboarding/${created.body.id}`).expect(200);
      if (res.body.status !== 'analyzed' && res.body.status !== 'failed') {
        throw new Error(res.body.status);
      }
      return res.body as { status: string; analysisError: string | null };
    });
    return { row, schema: schema! };
  }

  it('accepts a draft of the schema’s required fields alone', async () => {
    const { row, schema } = await analyseWith((s) => minimal(s, false));
    expect(row).toMatchObject({ status: 'analyzed', analysisError: null });
    expect(schema.required).toContain('organization');
    expect(schema.properties!.organization.required).toContain('confidence');
  });

  it('accepts one item of every list, each of its required fields alone (inherited ones included)', async () => {
    const { row, schema } = await analyseWith((s) => minimal(s, true));
    expect(row).toMatchObject({ status: 'analyzed', analysisError: null });
    expect(schema.properties!.people.items!.required).toEqual(
      expect.arrayContaining(['id', 'name', 'confidence']),
    );
  });

  it('says what validation refuses: unknown members, a missing confidence, a malformed decimal', async () => {
    const { schema } = await analyseWith(() => fullDraft('founder@rocket.test'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const check = ajv.compile(schema);
    const both = (draft: unknown) => [check(draft), !('errors' in validateDraft(draft))];
    const full = fullDraft('founder@rocket.test');
    expect(both(full)).toEqual([true, true]);
    expect(both({ ...full, founders: [] })).toEqual([false, false]);
    expect(both({ ...full, organization: { name: 'Rocket Labs' } })).toEqual([false, false]);
    expect(
      both({ ...full, people: [{ ...full.people[0], nickname: 'Ada' }, ...full.people.slice(1)] }),
    ).toEqual([false, false]);
    expect(
      both({
        ...full,
        shareClasses: [{ ...full.shareClasses[0], initial_shares_authorized: 'many' }],
      }),
    ).toEqual([false, false]);
  });
});
