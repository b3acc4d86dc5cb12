import '../../support/agent-on';
import { DataSource } from 'typeorm';
import { HookTurns } from '../../../src/agent';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { ownerWithOrg } from '../../support/world';

type Agent = ReturnType<TestApp['agent']>;
type Res = { headers: Record<string, string> };

const TURNS = 4;
const TOKENS = 4000;
const PROMPT_CHARS = 30_000;

/** The 429 headers every limit answers with. */
function expectLimitHeaders(res: Res, limit: number) {
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
}

/** What a request to the model weighs against AGENT_MAX_PROMPT_CHARS. */
const promptChars = (body: { system?: unknown; messages: unknown[] }) =>
  (typeof body.system === 'string'
    ? body.system.length
    : JSON.stringify(body.system ?? '').length) + JSON.stringify(body.messages).length;

describe('agent limits: turns, tokens, prompt size (issue 35 section 3)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({
      env: {
        ...fake.env(),
        LLM_MAX_RETRIES: '0',
        AGENT_TURNS_PER_USER_PER_HOUR: String(TURNS),
        AGENT_ORG_DAILY_TOKENS: String(TOKENS),
        AGENT_MAX_PROMPT_CHARS: String(PROMPT_CHARS),
      },
    });
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Limits Inc.');
    const chat = (agent: Agent, message: string, extra: Record<string, unknown> = {}) =>
      agent.post('/v1/agent/chat').send({ organization: org.id, message, ...extra });
    return { owner, org, chat };
  }

  it('answers 429 past AGENT_TURNS_PER_USER_PER_HOUR, without calling the model', async () => {
    const { owner, org, chat } = await world();
    for (let i = 0; i < TURNS; i++) await chat(owner.agent, `Turn ${i}`).expect(200);
    expect(fake.requests).toHaveLength(TURNS);
    const refused = await chat(owner.agent, 'One more').expect(429);
    expectLimitHeaders(refused, TURNS);
    expect(fake.requests).toHaveLength(TURNS);
    // Per user: another member still has their turns.
    const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
    await chat(editor.agent, 'Mine').expect(200);
    const context = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    expect(context.body.limits.turns).toEqual({
      limit: TURNS,
      remaining: 0,
      reset: expect.any(Number),
    });
  });

  it('stops an organization past AGENT_ORG_DAILY_TOKENS: 429 agentBudgetExhausted before any model call', async () => {
    const { owner, org, chat } = await world();
    const before = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    expect(before.body.limits.tokens).toEqual({
      limit: TOKENS,
      remaining: TOKENS,
      reset: expect.any(Number),
    });
    // The fake counts a token per 4 characters: this turn alone spends the day's budget.
    await chat(owner.agent, 'x'.repeat(19_000)).expect(200);
    const spent = (await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200))
      .body.limits.tokens as { remaining: number; reset: number };
    expect(spent.remaining).toBe(0);
    // The reset is the next midnight UTC.
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(spent.reset).toBe(midnight.getTime() / 1000);

    fake.reset();
    const refused = await chat(owner.agent, 'Hello again').expect(429);
    expect(refused.body).toMatchObject({ key: 'agentBudgetExhausted' });
    expectLimitHeaders(refused, TOKENS);
    // The organization's budget: another member is refused too, and nothing reached the model.
    const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
    await chat(editor.agent, 'Hi').expect(429);
    expect(fake.requests).toHaveLength(0);
    // Another organization of the same person has its own.
    const other = await createOrg(owner.agent, 'Other Inc.');
    await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: other.id, message: 'Hi' })
      .expect(200);
  });

  it('counts heartbeats against the organization’s budget, and refuses them once it is spent', async () => {
    const { owner, org } = await world();
    const turns = t.get<HookTurns>(HookTurns);
    await turns.record(org.id, 'Payment received: 100 USD', 'test');
    fake.reply('A payment came in.');
    await turns.heartbeat(org.id);
    const used = fake.requests.length;
    expect(used).toBe(1);
    const tokens = (await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200))
      .body.limits.tokens as { remaining: number };
    expect(tokens.remaining).toBeLessThan(TOKENS);
    expect(tokens.remaining).toBeGreaterThan(0);

    // An event holds at most 4000 characters: six of them weigh ~6000 tokens, over two
    // heartbeats at most (each takes what fits in half the prompt).
    for (let i = 0; i < 6; i++) await turns.record(org.id, `Big ${i}: ${'y'.repeat(4000)}`, 'test');
    await turns.heartbeat(org.id);
    await turns.heartbeat(org.id);
    await turns.record(org.id, 'Another event', 'test');
    fake.reset();
    await expect(turns.heartbeat(org.id)).rejects.toMatchObject({
      key: 'agentBudgetExhausted',
      status: 429,
    });
    expect(fake.requests).toHaveLength(0);
    // The refused heartbeat's events wait for the next one.
    expect(await turns.hasPending(org.id)).toBe(true);
  });

  it('keeps each prompt under AGENT_MAX_PROMPT_CHARS, leaving the oldest messages out first', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Prompt Inc.');
    const db = t.get<DataSource>(DataSource);
    const first = await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'FIRST-MESSAGE' })
      .expect(200);
    const conversationId = first.body.conversationId as string;
    // Earlier turns stored since (as if spoken on other days): 6 × 2 × 9000 characters.
    for (let i = 0; i < 6; i++) {
      await db.query(
        `INSERT INTO agent_message (conversation_id, role, content) VALUES
           ($1, 'user', $2::jsonb), ($1, 'assistant', $3::jsonb)`,
        [
          conversationId,
          JSON.stringify([{ type: 'text', text: `Q${i} ${'q'.repeat(9000)}` }]),
          JSON.stringify([{ type: 'text', text: `A${i} ${'a'.repeat(9000)}` }]),
        ],
      );
    }
    fake.reset();
    await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'LATEST-MESSAGE', conversationId })
      .expect(200);
    const body = fake.lastBody();
    expect(promptChars(body)).toBeLessThanOrEqual(PROMPT_CHARS);
    const sent = JSON.stringify(body.messages);
    expect(sent).toContain('LATEST-MESSAGE');
    expect(sent).toContain('A5 ');
    expect(sent).not.toContain('FIRST-MESSAGE');
    expect(sent).not.toContain('Q0 ');
    // It starts at a person's message, the roles alternating.
    expect(body.messages[0].role).toBe('user');
    expect(body.messages.every((m, i) => m.role === (i % 2 ? 'assistant' : 'user'))).toBe(true);
    // Still stored.
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM agent_message WHERE conversation_id = $1
         AND content::text LIKE '%FIRST-MESSAGE%'`,
      [conversationId],
    );
    expect(count).toBe(1);
  });

  it('keeps a heartbeat’s events and a hook run’s message within the prompt’s bound', async () => {
    const { org } = await world();
    const turns = t.get<HookTurns>(HookTurns);
    for (let i = 0; i < 8; i++)
      await turns.record(org.id, `Event ${i}: ${'e'.repeat(3990)}`, 'test');
    await turns.heartbeat(org.id);
    expect(promptChars(fake.lastBody())).toBeLessThanOrEqual(PROMPT_CHARS);
    expect(JSON.stringify(fake.lastBody().messages)).toContain('Event 0:');
    // The rest waits for the next heartbeat.
    expect(await turns.hasPending(org.id)).toBe(true);

    const other = await createOrg((await loggedInAgent(t)).agent, 'Hooked Inc.');
    fake.reset();
    await turns.hookRun({
      organizationId: other.id,
      message: `TASK ${'m'.repeat(40_000)}`,
      name: 'big',
      sessionKey: 'hook:big',
    });
    expect(promptChars(fake.lastBody())).toBeLessThanOrEqual(PROMPT_CHARS);
    expect(JSON.stringify(fake.lastBody().messages)).toMatch(/TASK m+… \[cut/);
  });

  it('refuses a seeded history over AGENT_MAX_PROMPT_CHARS (400), storing nothing', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'History Inc.');
    const history = Array.from({ length: 4 }, (_v, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: 'h'.repeat(9000),
    }));
    const res = await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Hi', history })
      .expect(400);
    expect(res.body).toMatchObject({
      message: expect.stringMatching(/AGENT_MAX_PROMPT_CHARS|prompt/),
    });
    expect(fake.requests).toHaveLength(0);
    const [{ count }] = await t
      .get<DataSource>(DataSource)
      .query(`SELECT count(*)::int AS count FROM agent_conversation WHERE organization_id = $1`, [
        org.id,
      ]);
    expect(count).toBe(0);
    // Within the bound it seeds as before.
    await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Hi', history: history.slice(0, 2) })
      .expect(200);
  });

  it('shows every limit in the context as {limit, remaining, reset}', async () => {
    const { owner, org } = await world();
    const res = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    const limit = {
      limit: expect.any(Number),
      remaining: expect.any(Number),
      reset: expect.any(Number),
    };
    expect(res.body.limits).toEqual({
      toolCalls: limit,
      writes: limit,
      destructive: limit,
      turns: { ...limit, limit: TURNS, remaining: TURNS },
      tokens: { ...limit, limit: TOKENS, remaining: TOKENS },
    });
  });
});
