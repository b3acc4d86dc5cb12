import '../../support/agent-on';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { verifyLedger } from '../../support/ledger-verify';
import { analysedOnboarding, DRAFT_TOOL, fullDraft, showcaseOf } from '../../support/onboarding';
import { loggedInAgent, randomIp } from '../../support/users';
import { DataSource } from 'typeorm';
import { BUILT_IN_ROLES } from '../../../src/organizations';

const OWNER_ROLE_ID = BUILT_IN_ROLES.find((r) => r.name === 'Owner')!.id;
import { Scheduler } from '../../../src/scheduler';

const rows = (body: unknown) =>
  (Array.isArray(body) ? body : ((body as { items?: unknown[] }).items ?? [])) as Record<
    string,
    unknown
  >[];

describe('AI-assisted onboarding', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({ env: { ...fake.env(), ONBOARDING_IP_LIMIT: '3' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('goes from a prompt to an organization whose ledger verifies', async () => {
    const founder = await loggedInAgent(t);
    const { id, created, status } = await analysedOnboarding(
      t,
      fake,
      founder.email,
      fullDraft(founder.email),
    );
    expect(created).toMatchObject({
      id,
      initialPrompt: expect.stringContaining('Rocket'),
      linked: false,
    });
    expect(status).toEqual({ id, status: 'analyzed', analysisComplete: true, hasQuestions: true });

    // The model was made to record a draft of the published schema, the prompt given as data.
    const body = fake.lastBody();
    expect(body.tool_choice).toEqual({ type: 'tool', name: DRAFT_TOOL });
    expect(body.tools?.[0]).toMatchObject({
      name: DRAFT_TOOL,
      input_schema: {
        type: 'object',
        properties: expect.objectContaining({
          organization: expect.anything(),
          shareholdings: expect.anything(),
        }),
      },
    });
    expect(JSON.stringify(body.messages)).toContain('<untrusted-data source=\\"initial-prompt\\">');

    // Public while unlinked: the questions and the preview.
    const questions = (await t.http.get(`/v1/agent/onboarding/questions/${id}`).expect(200)).body;
    expect(questions).toEqual([
      expect.objectContaining({
        kind: 'number',
        required: true,
        answer: null,
        fieldPath: 'par_value',
        itemId: expect.any(String),
      }),
    ]);
    const preview = await showcaseOf(t.http, id);
    const types = preview.items.map((i) => i.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'organization',
        'person',
        'shareClass',
        'shareholding',
        'optionPlan',
        'optionGrant',
        'convertible',
        'vestingSchedule',
      ]),
    );
    expect(
      preview.items.every(
        (i) => i.issues.filter((x) => !x.startsWith('low confidence')).length === 0,
      ),
    ).toBe(true);
    expect(
      preview.items.find((i) => i.type === 'person' && i.fields.name === 'Ada Founder'),
    ).toMatchObject({ source: 'prompt', confidence: 0.9 });
    expect(preview.totals).toMatchObject({ sharesIssued: '7800000' });

    // Someone else cannot take it; its founder links it, and from then on it is theirs alone.
    const stranger = await loggedInAgent(t);
    await stranger.agent.post('/v1/agent/onboarding/link').send({ onboardingId: id }).expect(403);
    await t.http.post('/v1/agent/onboarding/link').send({ onboardingId: id }).expect(401);
    const linked = await founder.agent
      .post('/v1/agent/onboarding/link')
      .send({ onboardingId: id })
      .expect(200);
    expect(linked.body).toMatchObject({ id, linked: true });
    await t.http.get(`/v1/agent/onboarding/${id}`).expect(404);
    await t.http.get(`/v1/agent/onboarding/showcase/${id}`).expect(404);
    await stranger.agent.get(`/v1/agent/onboarding/questions/${id}`).expect(404);
    await stranger.agent.post('/v1/agent/onboarding/build').send({ onboardingId: id }).expect(404);
    await founder.agent.get(`/v1/agent/onboarding/${id}`).expect(200);

    // The required question holds the build back until answered (typed: it sets the field).
    await founder.agent.post('/v1/agent/onboarding/build').send({ onboardingId: id }).expect(409);
    const [question] = questions as { questionId: string; itemId: string }[];
    await founder.agent
      .post('/v1/agent/onboarding/clarify')
      .send({ onboardingId: id, questionId: question.questionId, answer: 'cheap' })
      .expect(400);
    await founder.agent
      .post('/v1/agent/onboarding/clarify')
      .send({ onboardingId: id, questionId: id, answer: '1' })
      .expect(404);
    const answered = await founder.agent
      .post('/v1/agent/onboarding/clarify')
      .send({ onboardingId: id, questionId: question.questionId, answer: '0.0001' })
      .expect(200);
    expect(answered.body).toMatchObject({ answer: '0.0001' });
    const seed = (await showcaseOf(founder.agent, id)).items.find(
      (i) => i.itemId === question.itemId,
    )!;
    expect(seed).toMatchObject({
      source: 'answer',
      fields: expect.objectContaining({ par_value: '0.0001' }),
    });

    // Corrections: coerced to the field's type; unknown items and fields refused.
    const eve = (await showcaseOf(founder.agent, id)).items.find((i) => i.type === 'optionGrant')!;
    const correct = (itemId: string, fieldPath: string, newValue: unknown) =>
      founder.agent
        .post('/v1/agent/onboarding/correct')
        .send({ onboardingId: id, itemId, fieldPath, newValue });
    await correct(id, 'quantity', '1').expect(404);
    await correct(eve.itemId, 'no_such_field', '1').expect(400);
    await correct(eve.itemId, 'quantity', 'lots').expect(400);
    const corrected = await correct(eve.itemId, 'quantity', 120000).expect(200);
    expect(
      corrected.body.items.find((i: { itemId: string }) => i.itemId === eve.itemId),
    ).toMatchObject({
      source: 'correction',
      fields: expect.objectContaining({ quantity: '120000' }),
    });

    // The build: one organization, the founder its Owner; repeating it creates nothing.
    const built = await founder.agent
      .post('/v1/agent/onboarding/build')
      .send({ onboardingId: id })
      .expect(200);
    const organizationId = built.body.organizationId as string;
    expect(built.body.setupResult).toMatchObject({
      organizationId,
      organizationName: 'Rocket Labs',
    });
    const again = await founder.agent
      .post('/v1/agent/onboarding/build')
      .send({ onboardingId: id })
      .expect(200);
    expect(again.body).toEqual(built.body);
    const setupAgain = await founder.agent
      .post('/v1/agent/onboarding/setup')
      .send({ onboardingId: id })
      .expect(200);
    expect(setupAgain.body).toEqual(built.body);
    const mine = rows((await founder.agent.get('/v1/organization').expect(200)).body);
    expect(mine.filter((o) => o.name === 'Rocket Labs')).toHaveLength(1);

    const org = `/v1/organization/${organizationId}`;
    expect((await founder.agent.get(org).expect(200)).body).toMatchObject({
      name: 'Rocket Labs',
      legalName: 'Rocket Labs, Inc.',
      currency: 'USD',
    });
    const classes = rows((await founder.agent.get(`${org}/security`).expect(200)).body);
    expect(classes.map((c) => c.name).sort()).toEqual(['Common', 'Seed Preferred']);
    const holdings = rows((await founder.agent.get(`${org}/shareholding`).expect(200)).body);
    expect(holdings).toHaveLength(3);
    const members = rows((await founder.agent.get(`${org}/member`).expect(200)).body);
    const ada = members.filter((m) => m.email === founder.email);
    expect(ada).toHaveLength(1);
    expect(ada[0]).toMatchObject({ role: OWNER_ROLE_ID, user: founder.user.id });
    expect(members.map((m) => m.name)).toEqual(
      expect.arrayContaining(['Bob Cofounder', 'Seed Fund LP', 'Eve Engineer']),
    );
    const options = rows((await founder.agent.get(`${org}/option`).expect(200)).body);
    expect(options).toHaveLength(1);
    expect(String(options[0].quantity)).toBe('120000');
    expect((await verifyLedger(t, organizationId)).code).toBe(0);

    // After the build: the draft is settled; the first login until completed.
    await correct(eve.itemId, 'quantity', '1').expect(409);
    expect((await founder.agent.get('/v1/agent/onboarding/first-login').expect(200)).body).toEqual({
      isFirstLogin: true,
      onboardingId: id,
      setupResult: built.body.setupResult,
      welcomeMessage: expect.stringContaining('Rocket Labs'),
    });
    await founder.agent
      .post('/v1/agent/onboarding/complete')
      .send({ onboardingId: id })
      .expect(200);
    expect(
      (await founder.agent.get('/v1/agent/onboarding/first-login').expect(200)).body,
    ).toMatchObject({ isFirstLogin: false, onboardingId: id });
    await t.http.get('/v1/agent/onboarding/first-login').expect(401);
  });

  it('turns figures the ledger would refuse into questions, which a correction settles', async () => {
    const founder = await loggedInAgent(t);
    const draft = fullDraft(founder.email);
    draft.questions = [];
    draft.shareholdings[0].quantity = '9500000'; // with Bob's 3M, more than the 10M authorized
    const { id, status } = await analysedOnboarding(t, fake, founder.email, draft);
    expect(status).toMatchObject({ status: 'analyzed', hasQuestions: true });
    const questions = (await t.http.get(`/v1/agent/onboarding/questions/${id}`).expect(200))
      .body as { itemId: string; fieldPath: string | null; required: boolean; text: string }[];
    expect(questions.length).toBeGreaterThan(0);
    const preview = await showcaseOf(t.http, id);
    const flagged = preview.items.filter((i) =>
      i.issues.some((x) => !x.startsWith('low confidence')),
    );
    expect(flagged.length).toBeGreaterThan(0);
    expect(questions.every((q) => q.required)).toBe(true);

    // build and setup both refuse the draft as it is; nothing is created.
    await founder.agent.post('/v1/agent/onboarding/build').send({ onboardingId: id }).expect(409);
    const refused = await founder.agent
      .post('/v1/agent/onboarding/setup')
      .send({ onboardingId: id })
      .expect(400);
    expect(refused.body).toMatchObject({ key: 'invalidFields', problems: expect.any(Array) });
    expect(rows((await founder.agent.get('/v1/organization').expect(200)).body)).toHaveLength(0);

    const ada = preview.items.find(
      (i) => i.type === 'shareholding' && i.fields.stakeholder_id === 'ada',
    )!;
    const holdingIds = preview.items.filter((i) => i.type === 'shareholding').map((i) => i.itemId);
    const onQuantity = questions.filter((q) => q.fieldPath === 'quantity');
    expect(onQuantity.length).toBeGreaterThan(0);
    expect(holdingIds).toEqual(expect.arrayContaining(onQuantity.map((q) => q.itemId)));
    await founder.agent
      .post('/v1/agent/onboarding/correct')
      .send({ onboardingId: id, itemId: ada.itemId, fieldPath: 'quantity', newValue: '4000000' })
      .expect(200);
    const after = await t.http.get(`/v1/agent/onboarding/analysis-status/${id}`);
    expect(after.status).toBe(404); // linked by the correction: the founder's alone now
    expect(
      (await founder.agent.get(`/v1/agent/onboarding/analysis-status/${id}`).expect(200)).body,
    ).toMatchObject({ hasQuestions: false });
    const built = await founder.agent
      .post('/v1/agent/onboarding/build')
      .send({ onboardingId: id })
      .expect(200);
    expect((await verifyLedger(t, built.body.organizationId)).code).toBe(0);
  });

  it('sets up with defaults from a sparse draft', async () => {
    const founder = await loggedInAgent(t, { email: `founder-${Date.now()}@zephyr.io` });
    const draft = {
      organization: { confidence: 0.3 },
      people: [
        {
          id: 'me',
          name: 'Zed Founder',
          email: founder.email,
          stakeholder_type: 'INDIVIDUAL',
          confidence: 0.9,
        },
      ],
      shareholdings: [{ id: 'mine', stakeholder_id: 'me', quantity: '1000000', confidence: 0.6 }],
    };
    const { id } = await analysedOnboarding(t, fake, founder.email, draft, 'Just me, 1M shares.');
    // Two at once: one organization, both told of it.
    const [setup, twin] = await Promise.all(
      [1, 2].map(() =>
        founder.agent.post('/v1/agent/onboarding/setup').send({ onboardingId: id }).expect(200),
      ),
    );
    expect(twin.body).toEqual(setup.body);
    expect(rows((await founder.agent.get('/v1/organization').expect(200)).body)).toHaveLength(1);
    const org = (
      await founder.agent.get(`/v1/organization/${setup.body.organizationId}`).expect(200)
    ).body;
    expect(org).toMatchObject({ name: 'Zephyr', currency: 'USD' });
    const classes = rows(
      (await founder.agent.get(`/v1/organization/${org.id}/security`).expect(200)).body,
    );
    expect(classes).toEqual([expect.objectContaining({ name: 'Common' })]);
    const items = (await showcaseOf(founder.agent, id)).items;
    expect(items.find((i) => i.type === 'shareClass')).toMatchObject({ source: 'default' });
    expect((await verifyLedger(t, org.id)).code).toBe(0);
  });

  it('analyses again with answers, corrections and files; a failing model is 503 and recorded', async () => {
    const founder = await loggedInAgent(t);
    const { id } = await analysedOnboarding(t, fake, founder.email, fullDraft(founder.email));
    const csv = Buffer.from('name,shares\nAda Founder,4000000\n');
    const pdf = Buffer.from('%PDF-1.4\n% a stock ledger\n');
    fake.toolUse([{ name: DRAFT_TOOL, input: { ...fullDraft(founder.email), questions: [] } }]);
    const res = await founder.agent
      .post('/v1/agent/onboarding/analyze')
      .field('onboardingId', id)
      .attach('files', csv, { filename: 'ledger.csv', contentType: 'text/csv' })
      .attach('files', pdf, { filename: 'charter.pdf', contentType: 'application/pdf' })
      .expect(200);
    expect(res.body).toMatchObject({ id, status: 'analyzed', linked: true });
    const content = JSON.stringify(fake.lastBody().messages);
    expect(content).toContain('Ada Founder,4000000');
    expect(content).toContain('"type":"document"');
    expect(content).toContain('current-draft');
    const answered = (await founder.agent.get(`/v1/agent/onboarding/questions/${id}`).expect(200))
      .body;
    expect(answered).toEqual([]);

    await founder.agent
      .post('/v1/agent/onboarding/analyze')
      .field('onboardingId', id)
      .attach('files', Buffer.from('MZ binary'), { filename: 'tool.exe' })
      .expect(400);

    // A draft that is not one: recorded as failed, nothing else changes.
    fake.toolUse([
      { name: DRAFT_TOOL, input: { organization: { name: 'X', confidence: 2 }, people: 'none' } },
    ]);
    const bad = await founder.agent
      .post('/v1/agent/onboarding/analyze')
      .send({ onboardingId: id })
      .expect(200);
    expect(bad.body).toMatchObject({
      status: 'failed',
      analysisError: expect.stringContaining('not valid'),
    });
    await founder.agent.post('/v1/agent/onboarding/build').send({ onboardingId: id }).expect(409);

    fake.overloaded({ times: 10 });
    const down = await founder.agent
      .post('/v1/agent/onboarding/analyze')
      .send({ onboardingId: id })
      .expect(503);
    expect(down.body).toMatchObject({ key: 'agentUnavailable' });
    fake.reset();
    expect((await founder.agent.get(`/v1/agent/onboarding/${id}`).expect(200)).body).toMatchObject({
      status: 'failed',
    });
  });

  it('limits creations per client address per hour (ONBOARDING_IP_LIMIT)', async () => {
    const ip = randomIp();
    const create = (from: string) =>
      t.http
        .post('/v1/agent/onboarding/create')
        .set('X-Forwarded-For', from)
        .send({ email: 'limit@example.test', initialPrompt: 'Acme' });
    fake.reply('no draft', { times: 10 });
    for (let i = 0; i < 3; i++) await create(ip).expect(201);
    const refused = await create(ip).expect(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    await create(randomIp()).expect(201);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const create = (body: object) =>
      t.http.post('/v1/agent/onboarding/create').set('X-Forwarded-For', randomIp()).send(body);
    await create({ email: 'not-an-address', initialPrompt: 'Acme' }).expect(400);
    await create({ email: 'a@example.test', initialPrompt: 'x'.repeat(8001) }).expect(400);
    await create({ email: 'a@example.test' }).expect(400);
    await t.http.get('/v1/agent/onboarding/not-a-uuid').expect(400);
    await t.http.get('/v1/agent/onboarding/00000000-0000-4000-8000-000000000000').expect(404);
    // Every route of the linked user answers 401 without a session (before any lookup).
    const someId = { onboardingId: '00000000-0000-4000-8000-000000000000' };
    for (const route of ['link', 'analyze', 'clarify', 'correct', 'build', 'setup', 'complete']) {
      await t.http.post(`/v1/agent/onboarding/${route}`).send(someId).expect(401);
    }
    const user = await loggedInAgent(t);
    await user.agent.post('/v1/agent/onboarding/link').send({ onboardingId: 'nope' }).expect(400);
    await user.agent
      .post('/v1/agent/onboarding/link')
      .send({ onboardingId: '00000000-0000-4000-8000-000000000000' })
      .expect(404);
    expect((await user.agent.get('/v1/agent/onboarding/first-login').expect(200)).body).toEqual({
      isFirstLogin: false,
      onboardingId: null,
      setupResult: null,
      welcomeMessage: null,
    });
  });

  it('deletes onboardings nobody linked within 7 days; linked ones stay', async () => {
    const founder = await loggedInAgent(t);
    fake.reply('no draft', { times: 2 });
    const create = (email: string) =>
      t.http
        .post('/v1/agent/onboarding/create')
        .set('X-Forwarded-For', randomIp())
        .send({ email, initialPrompt: 'Acme' })
        .expect(201);
    const unlinked = (await create('gone@example.test')).body.id as string;
    const linked = (await create(founder.email)).body.id as string;
    await founder.agent
      .post('/v1/agent/onboarding/link')
      .send({ onboardingId: linked })
      .expect(200);
    const db = t.get<DataSource>(DataSource);
    await db.query(
      `UPDATE agent_onboarding SET created = now() - interval '8 days' WHERE id = ANY($1)`,
      [[unlinked, linked]],
    );
    expect(
      await t.get<Scheduler>(Scheduler).run('agent:onboarding-cleanup'),
    ).toBeGreaterThanOrEqual(1);
    await t.http.get(`/v1/agent/onboarding/${unlinked}`).expect(404);
    await founder.agent.get(`/v1/agent/onboarding/${linked}`).expect(200);
  });

  it('links only for the address it was started with; another account of it later is 409', async () => {
    const first = await loggedInAgent(t);
    fake.reply('no draft');
    const id = (
      await t.http
        .post('/v1/agent/onboarding/create')
        .set('X-Forwarded-For', randomIp())
        .send({ email: first.email.toUpperCase(), initialPrompt: 'Acme' })
        .expect(201)
    ).body.id as string;
    await first.agent.post('/v1/agent/onboarding/link').send({ onboardingId: id }).expect(200);
    await first.agent.post('/v1/agent/onboarding/link').send({ onboardingId: id }).expect(200);
    const stranger = await loggedInAgent(t);
    await stranger.agent.post('/v1/agent/onboarding/link').send({ onboardingId: id }).expect(403);
    // The first account moves to another address; a new account takes the old one.
    await t
      .get<DataSource>(DataSource)
      .query(`UPDATE user_account SET email = 'moved-' || email WHERE id = $1`, [first.user.id]);
    const second = await loggedInAgent(t, { email: first.email });
    await second.agent.post('/v1/agent/onboarding/link').send({ onboardingId: id }).expect(409);
    await second.agent.get(`/v1/agent/onboarding/${id}`).expect(404);
    await first.agent.get(`/v1/agent/onboarding/${id}`).expect(200);
  });
});
