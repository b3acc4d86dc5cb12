import '../../support/agent-on';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { analysedOnboarding, DRAFT_TOOL, fullDraft } from '../../support/onboarding';
import { loggedInAgent, randomIp } from '../../support/users';

type Res = { headers: Record<string, string> };

function expectLimitHeaders(res: Res, limit: number) {
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
}

const IP_LIMIT = 2;
const CREATES = 6;
const ANALYSES = 2;

describe('onboarding limits (issue 35 section 3)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({
      env: {
        ...fake.env(),
        ONBOARDING_IP_LIMIT: String(IP_LIMIT),
        ONBOARDING_CREATES_PER_HOUR: String(CREATES),
        ONBOARDING_ANALYSES_PER_ONBOARDING: String(ANALYSES),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const create = (ip: string, email = 'founder@rocket.test') =>
    t.http
      .post('/v1/agent/onboarding/create')
      .set('X-Forwarded-For', ip)
      .send({ email, initialPrompt: 'We are Rocket Labs.' });

  // Creates so far: the global cap (CREATES an hour) counts them all, in the order of the tests.
  it('counts IPv6 clients by their /64: other addresses of the same network share its limit', async () => {
    await create('2001:db8:1:2::1').expect(201);
    await create('2001:db8:1:2:aaaa:bbbb:cccc:dddd').expect(201);
    const refused = await create('2001:db8:1:2:ffff::3').expect(429);
    expectLimitHeaders(refused, IP_LIMIT);
    // Another /64 has its own.
    await create('2001:db8:1:3::1').expect(201);
    // IPv4 addresses stay one client each.
    await create('192.0.2.10').expect(201);
  });

  it('answers 429 past ONBOARDING_ANALYSES_PER_ONBOARDING, without calling the model', async () => {
    const founder = await loggedInAgent(t);
    const { id } = await analysedOnboarding(t, fake, founder.email, fullDraft(founder.email));
    const analyze = () =>
      founder.agent.post('/v1/agent/onboarding/analyze').send({ onboardingId: id });
    for (let i = 0; i < ANALYSES; i++) {
      fake.toolUse([{ name: DRAFT_TOOL, input: fullDraft(founder.email) }]);
      await analyze().expect(200);
    }
    fake.reset();
    const refused = await analyze().expect(429);
    expectLimitHeaders(refused, ANALYSES);
    await founder.agent.post('/v1/agent/onboarding/setup').send({ onboardingId: id }).expect(200);
    expect(fake.requests).toHaveLength(0);
  });

  it('caps anonymous creates from all clients at ONBOARDING_CREATES_PER_HOUR', async () => {
    // Five created above: one more is allowed, from any address; then every address is refused.
    await create(randomIp()).expect(201);
    const refused = await create(randomIp()).expect(429);
    expectLimitHeaders(refused, CREATES);
    await create('2001:db8:9:9::9').expect(429);
  });
});

describe('onboarding token budgets (issue 35 section 3)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({ env: { ...fake.env(), ONBOARDING_ANONYMOUS_DAILY_TOKENS: '1' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('spends unlinked analyses from one anonymous budget, linked ones from the user’s', async () => {
    const founder = await loggedInAgent(t);
    const first = await analysedOnboarding(t, fake, founder.email, fullDraft(founder.email));
    expect(first.status.status).toBe('analyzed');
    // The anonymous day is spent: the next onboarding's first analysis never reaches the model.
    fake.reset();
    const second = await t.http
      .post('/v1/agent/onboarding/create')
      .set('X-Forwarded-For', randomIp())
      .send({ email: founder.email, initialPrompt: 'We are Rocket Labs.' })
      .expect(201);
    const failed = await eventually(async () => {
      const res = await t.http.get(`/v1/agent/onboarding/${second.body.id}`).expect(200);
      if (res.body.status !== 'failed') throw new Error(res.body.status);
      return res.body as { analysisError: string };
    });
    expect(failed.analysisError).toMatch(/budget/);
    expect(fake.requests).toHaveLength(0);
    // Its founder, once linked, analyses on their own budget.
    fake.toolUse([{ name: DRAFT_TOOL, input: fullDraft(founder.email) }]);
    const analysed = await founder.agent
      .post('/v1/agent/onboarding/analyze')
      .send({ onboardingId: second.body.id })
      .expect(200);
    expect(analysed.body.status).toBe('analyzed');
  });
});
