import '../../support/agent-on';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { takeClock } from '../../support/clock';
import { ERROR_BODIES } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { DataSource } from 'typeorm';
import { STORED_MESSAGES } from '../../../src/agent/store/conversations';
import { ownerWithOrg } from '../../support/world';

type Agent = ReturnType<TestApp['agent']>;

describe('agent chat (spec 4.2, issue 23)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({
      env: {
        ...fake.env(),
        LLM_MAX_RETRIES: '1',
        AGENT_PENDING_TTL_MINUTES: '0.05',
        // Two models allowed, the default one of them.
        LLM_MODEL: 'claude-sonnet-4-6',
        LLM_ALLOWED_MODELS: 'claude-sonnet-4-6,claude-haiku-4-5',
      },
    });
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Agent Inc.');
    const chat = (agent: Agent, message: string, extra: Record<string, unknown> = {}) =>
      agent.post('/v1/agent/chat').send({ organization: org.id, message, ...extra });
    const legends = async () =>
      (
        (await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200)).body as {
          name: string;
        }[]
      ).map((l) => l.name);
    return { owner, org, chat, legends };
  }

  it('answers its status to a session, and 401 without one', async () => {
    const { owner } = await world();
    expect((await owner.agent.get('/v1/agent/status').expect(200)).body).toEqual({
      enabled: true,
      version: expect.any(String),
    });
    expect((await t.http.get('/v1/agent/status').expect(401)).body).toEqual(ERROR_BODIES[401]);
  });

  it('lists its tools with the route’s input schema, allowed by the caller’s role', async () => {
    const { owner, org } = await world();
    const tools = (await owner.agent.get(`/v1/organization/${org.id}/agent/tools`).expect(200))
      .body as {
      name: string;
      kind: string;
      allowed: boolean;
      requiresConfirmation: boolean;
      inputSchema: { properties: Record<string, unknown>; required: string[] } | null;
    }[];
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_share_classes')).toMatchObject({
      kind: 'read',
      allowed: true,
      requiresConfirmation: false,
    });
    const issue = byName.get('issue_shares')!;
    expect(issue).toMatchObject({ kind: 'write', allowed: true, requiresConfirmation: true });
    expect(issue.inputSchema!.properties).toHaveProperty('quantity');
    expect(issue.inputSchema!.properties).not.toHaveProperty('organization');
    expect(byName.get('void_shareholding')).toMatchObject({
      kind: 'destructive',
      requiresConfirmation: true,
      inputSchema: { required: ['shareholding'] },
    });
    expect(tools.every((tool) => tool.inputSchema === null || tool.inputSchema.properties)).toBe(
      true,
    );

    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const seen = (await viewer.agent.get(`/v1/organization/${org.id}/agent/tools`).expect(200))
      .body as { name: string; kind: string; allowed: boolean }[];
    expect(seen.filter((tool) => tool.kind !== 'read').every((tool) => !tool.allowed)).toBe(true);
    expect(seen.find((tool) => tool.name === 'get_organization')!.allowed).toBe(true);
  });

  it('reads through its tools as the caller and answers', async () => {
    const { owner, org, chat } = await world();
    await owner.agent
      .post(`/v1/organization/${org.id}/legend`)
      .send({ name: 'Rule 144', text: 'Restricted.' })
      .expect(201);
    fake.toolUse([{ name: 'list_legends', input: {} }]).reply('One legend: Rule 144.');
    const res = await chat(owner.agent, 'Which legends do we have?').expect(200);
    expect(res.body).toMatchObject({
      response: 'One legend: Rule 144.',
      conversationId: expect.any(String),
      truncated: false,
      pendingConfirmations: [],
      toolCalls: [
        {
          name: 'list_legends',
          input: {},
          status: 'executed',
          result: [expect.objectContaining({ name: 'Rule 144' })],
        },
      ],
    });
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests.map((r) => r.body);
    expect(first.model).toBe('claude-sonnet-4-6');
    expect(first.tools!.map((tool) => (tool as { name: string }).name)).toContain('list_legends');
    expect(JSON.stringify(first.tools)).not.toContain('"organization"');
    const results = second.messages[second.messages.length - 1].content as {
      type: string;
      tool_use_id: string;
      content: string;
    }[];
    expect(results[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: res.body.toolCalls[0].id,
    });
    expect(results[0].content).toMatch(/^<untrusted-data source="tool:list_legends">/);
    expect(results[0].content).toContain('Rule 144');

    // The conversation goes on with what was said.
    fake.reply('Still one.');
    await chat(owner.agent, 'And now?', { conversationId: res.body.conversationId }).expect(200);
    const again = fake.requests[2].body.messages;
    expect(again[0]).toMatchObject({ role: 'user' });
    expect(JSON.stringify(again)).toContain('Which legends do we have?');
  });

  it('keeps a write waiting for confirmation, then runs it once', async () => {
    const { owner, chat, legends } = await world();
    fake
      .toolUse([{ name: 'create_legend', input: { name: 'Lock-up', text: '180 days.' } }])
      .reply('I can add it once you confirm.');
    const res = await chat(owner.agent, 'Add a lock-up legend').expect(200);
    expect(res.body.toolCalls).toMatchObject([{ name: 'create_legend', status: 'pending' }]);
    expect(res.body.pendingConfirmations).toEqual([
      {
        stepId: expect.any(String),
        tool: 'create_legend',
        kind: 'write',
        input: { name: 'Lock-up', text: '180 days.' },
        summary: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    expect(await legends()).toEqual([]);
    const { stepId } = res.body.pendingConfirmations[0];
    const confirmed = await owner.agent
      .post('/v1/agent/confirm')
      .send({ stepId, confirmed: true })
      .expect(200);
    expect(confirmed.body).toMatchObject({
      stepId,
      status: 'executed',
      result: expect.objectContaining({ name: 'Lock-up' }),
    });
    expect(await legends()).toEqual(['Lock-up']);
    await owner.agent.post('/v1/agent/confirm').send({ stepId, confirmed: true }).expect(409);
    expect(await legends()).toEqual(['Lock-up']);
  });

  it('records a rejection the model reads next turn; expired and unknown steps', async () => {
    const { owner, chat, legends } = await world();
    fake.toolUse([{ name: 'create_legend', input: { name: 'No', text: 'No.' } }]).reply('Confirm?');
    const res = await chat(owner.agent, 'Add it').expect(200);
    const { stepId } = res.body.pendingConfirmations[0];
    expect(
      (await owner.agent.post('/v1/agent/confirm').send({ stepId, confirmed: false }).expect(200))
        .body,
    ).toEqual({ stepId, status: 'rejected' });
    expect(await legends()).toEqual([]);
    fake.reply('Understood.');
    await chat(owner.agent, 'ok', { conversationId: res.body.conversationId }).expect(200);
    const sent = fake.requests[fake.requests.length - 1].body.messages;
    expect(JSON.stringify(sent)).toMatch(/rejected/);
    // The decision and the next message go as one turn: the roles alternate.
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);

    fake.toolUse([{ name: 'create_legend', input: { name: 'Late', text: 'Late.' } }]).reply('?');
    const late = await chat(owner.agent, 'Add another').expect(200);
    // Past its AGENT_PENDING_TTL_MINUTES (3 s) on the app's clock.
    const clock = takeClock(t);
    try {
      clock.advance(3500);
      await owner.agent
        .post('/v1/agent/confirm')
        .send({ stepId: late.body.pendingConfirmations[0].stepId, confirmed: true })
        .expect(409);
    } finally {
      clock.restore();
    }
    expect(await legends()).toEqual([]);
    await owner.agent
      .post('/v1/agent/confirm')
      .send({ stepId: '6a0d4c1e-0c8f-4a43-9a59-2b8a3c1d0e11', confirmed: true })
      .expect(404);
    const other = await loggedInAgent(t);
    await other.agent.post('/v1/agent/confirm').send({ stepId, confirmed: true }).expect(404);
  });

  it('lets any member decide a step of the main conversation, as that member; no one else', async () => {
    const { owner, org, chat, legends } = await world();
    const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
    const context = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    fake.toolUse([{ name: 'create_legend', input: { name: 'Main', text: 'Main.' } }]).reply('?');
    const res = await chat(owner.agent, 'Add it', {
      conversationId: context.body.mainConversationId,
    }).expect(200);
    expect(res.body.conversationId).toBe(context.body.mainConversationId);
    const { stepId } = res.body.pendingConfirmations[0];
    const outsider = await loggedInAgent(t);
    await outsider.agent.post('/v1/agent/confirm').send({ stepId, confirmed: true }).expect(404);
    const done = await editor.agent
      .post('/v1/agent/confirm')
      .send({ stepId, confirmed: true })
      .expect(200);
    expect(done.body.status).toBe('executed');
    expect(await legends()).toEqual(['Main']);
    // Run as the member who confirmed: the activity log names them.
    const entry = await eventually(async () => {
      const actions = (await owner.agent.get(`/v1/organization/${org.id}/action`).expect(200))
        .body as { type: string; userId: string | null }[];
      return actions.find((a) => a.type === 'legend.created');
    });
    expect(entry?.userId).toBe(editor.user.id);
  });

  it('refuses a step whose confirming person lost the permission: failed, decided', async () => {
    const { owner, org, legends } = await world();
    const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
    fake.toolUse([{ name: 'create_legend', input: { name: 'Ed', text: 'Ed.' } }]).reply('Confirm?');
    const res = await editor.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Add it' })
      .expect(200);
    const { stepId } = res.body.pendingConfirmations[0];
    const members = (await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200))
      .body as { id: string; user: string | null }[];
    const me = members.find((m) => m.user === editor.user.id)!;
    const roles = (await owner.agent.get(`/v1/organization/${org.id}/role`).expect(200)).body as {
      id: string;
      name: string;
    }[];
    await owner.agent
      .patch(`/v1/organization/${org.id}/member/${me.id}`)
      .send({ role: roles.find((r) => r.name === 'Viewer')!.id })
      .expect(200);
    const decided = await editor.agent
      .post('/v1/agent/confirm')
      .send({ stepId, confirmed: true })
      .expect(200);
    expect(decided.body).toMatchObject({ stepId, status: 'failed', error: expect.any(String) });
    expect(await legends()).toEqual([]);
    await editor.agent.post('/v1/agent/confirm').send({ stepId, confirmed: true }).expect(409);
  });

  it('offers a Viewer no write: a call to one fails and nothing is stored', async () => {
    const { owner, org, legends } = await world();
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    fake.toolUse([{ name: 'create_legend', input: { name: 'V', text: 'V.' } }]).reply('I cannot.');
    const res = await viewer.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Add a legend' })
      .expect(200);
    expect(res.body.toolCalls).toMatchObject([{ name: 'create_legend', status: 'failed' }]);
    expect(res.body.pendingConfirmations).toEqual([]);
    expect(
      fake.requests[0].body.tools!.map((tool) => (tool as { name: string }).name),
    ).not.toContain('create_legend');
    expect(await legends()).toEqual([]);
  });

  it('runs a tool in the chat’s organization only: another organization’s id fails', async () => {
    const { owner, org, chat } = await world();
    const other = await createOrg(owner.agent, 'Other Inc.');
    const legend = await owner.agent
      .post(`/v1/organization/${other.id}/legend`)
      .send({ name: 'Theirs', text: 'Theirs.' })
      .expect(201);
    fake.toolUse([{ name: 'delete_legend', input: { legend: legend.body.id } }]).reply('Confirm?');
    const res = await chat(owner.agent, 'Delete it').expect(200);
    const decided = await owner.agent
      .post('/v1/agent/confirm')
      .send({ stepId: res.body.pendingConfirmations[0].stepId, confirmed: true })
      .expect(200);
    expect(decided.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/^404/) });
    await owner.agent.get(`/v1/organization/${other.id}/legend/${legend.body.id}`).expect(200);
    void org;
  });

  it('stops after 8 rounds of tools: truncated', async () => {
    const { owner, chat } = await world();
    fake.toolUse([{ name: 'list_members', input: {} }], 'Looking.');
    for (let i = 0; i < 9; i++)
      fake.toolUse([{ name: 'list_members', input: {} }], `Round ${i + 2}`);
    const res = await chat(owner.agent, 'Loop').expect(200);
    expect(res.body).toMatchObject({ truncated: true, response: 'Round 8' });
    expect(fake.requests).toHaveLength(8);
    expect(res.body.toolCalls).toHaveLength(8);
  });

  it('answers 429 with its headers past the tool-call budget, running none of the round', async () => {
    const { owner, chat } = await world();
    const calls = Array.from({ length: 31 }, () => ({ name: 'list_members', input: {} }));
    fake.toolUse(calls);
    const res = await chat(owner.agent, 'Too many').expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
  });

  it('counts confirmed writes (10 a minute) and destructive actions (5 an hour): 429, the step left pending', async () => {
    const { owner, org, chat, legends } = await world();
    const confirm = (stepId: string) =>
      owner.agent.post('/v1/agent/confirm').send({ stepId, confirmed: true });
    fake.toolUse(
      Array.from({ length: 11 }, (_v, i) => ({
        name: 'create_legend',
        input: { name: `L${i}`, text: 'Text.' },
      })),
    );
    fake.reply('Eleven to confirm.');
    const writes = (await chat(owner.agent, 'Add eleven').expect(200)).body
      .pendingConfirmations as {
      stepId: string;
    }[];
    expect(writes).toHaveLength(11);
    for (const step of writes.slice(0, 10)) await confirm(step.stepId).expect(200);
    const refused = await confirm(writes[10].stepId).expect(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('10');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await legends()).toHaveLength(10);
    const ids = (
      (await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200)).body as {
        id: string;
      }[]
    ).map((l) => l.id);
    fake.toolUse(ids.slice(0, 6).map((legend) => ({ name: 'delete_legend', input: { legend } })));
    fake.reply('Six to confirm.');
    const deletes = (await chat(owner.agent, 'Delete six').expect(200)).body
      .pendingConfirmations as { stepId: string; kind: string }[];
    expect(deletes.map((d) => d.kind)).toEqual(Array(6).fill('destructive'));
    for (const step of deletes.slice(0, 5)) await confirm(step.stepId).expect(200);
    const limited = await confirm(deletes[5].stepId).expect(429);
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
    expect(await legends()).toHaveLength(5);
    // Still pending: a rejection decides it.
    expect(
      (
        await owner.agent
          .post('/v1/agent/confirm')
          .send({ stepId: deletes[5].stepId, confirmed: false })
          .expect(200)
      ).body.status,
    ).toBe('rejected');
  });

  it('answers 503 when the model stays overloaded after its retries', async () => {
    const { owner, chat } = await world();
    fake.overloaded({ times: 5 });
    const res = await chat(owner.agent, 'Hello').expect(503);
    expect(res.body).toMatchObject({ message: expect.any(String) });
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a bad history, another user’s conversation, and a non-member (before any model call)', async () => {
    const { owner, org, chat } = await world();
    for (const history of [
      [{ role: 'assistant', content: 'Hi' }],
      [{ role: 'user', content: 'Hi' }],
      [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      [
        { role: 'user', content: 3 },
        { role: 'assistant', content: 'x' },
      ],
      Array.from({ length: 52 }, (_v, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'x' })),
    ]) {
      await chat(owner.agent, 'Hi', { history }).expect(400);
    }
    fake.reply('Hi.');
    const mine = await chat(owner.agent, 'Hi', {
      history: [
        { role: 'user', content: 'Earlier' },
        { role: 'assistant', content: 'Answer' },
      ],
    }).expect(200);
    expect(fake.requests[0].body.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    await chat(owner.agent, 'Hi', {
      conversationId: mine.body.conversationId,
      history: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
    }).expect(400);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    fake.reset();
    await viewer.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Hi', conversationId: mine.body.conversationId })
      .expect(404);
    const outsider = await loggedInAgent(t);
    await outsider.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Hi' })
      .expect(403);
    await t.http.post('/v1/agent/chat').send({ organization: org.id, message: 'Hi' }).expect(401);
    expect(fake.requests).toHaveLength(0);

    const context = await viewer.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    fake.reply('Shared.');
    await viewer.agent
      .post('/v1/agent/chat')
      .send({
        organization: org.id,
        message: 'Hi',
        conversationId: context.body.mainConversationId,
      })
      .expect(200);
  });

  it('shows its context: the organization, role, counts, tools and limits', async () => {
    const { owner, org } = await world();
    const res = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    expect(res.body).toMatchObject({
      organization: { id: org.id, name: 'Agent Inc.' },
      permissions: expect.arrayContaining(['canEditCapTable']),
      counts: { members: 1, shareholders: 0, stakeholders: 0 },
      capabilities: { confirmWrites: true, tools: expect.arrayContaining(['issue_shares']) },
      limits: {
        toolCalls: { limit: 30, remaining: 30, reset: expect.any(Number) },
        writes: { limit: 10, remaining: 10, reset: expect.any(Number) },
        destructive: { limit: 5, remaining: 5, reset: expect.any(Number) },
      },
      mainConversationId: expect.any(String),
    });
    const again = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    expect(again.body.mainConversationId).toBe(res.body.mainConversationId);
  });

  it('answers 401 for the context and the tools without a session, 403 to a non-member', async () => {
    const { org } = await world();
    for (const path of ['context', 'tools']) {
      const res = await t.http.get(`/v1/organization/${org.id}/agent/${path}`).expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
    }
    const outsider = await loggedInAgent(t);
    await outsider.agent.get(`/v1/organization/${org.id}/agent/context`).expect(403);
    await outsider.agent.get(`/v1/organization/${org.id}/agent/tools`).expect(403);
  });

  it('keeps at most STORED_MESSAGES messages per conversation, deleting the oldest', async () => {
    const { owner, chat } = await world();
    fake.reply('First answer.');
    const first = await chat(owner.agent, 'Hello').expect(200);
    const conversationId = first.body.conversationId as string;
    const db = t.get<DataSource>(DataSource);
    await db.query(
      `INSERT INTO agent_message (conversation_id, role, content)
       SELECT $1, CASE WHEN n % 2 = 0 THEN 'user' ELSE 'assistant' END, '[{"type":"text","text":"filler"}]'
       FROM generate_series(1, $2) AS n`,
      [conversationId, STORED_MESSAGES],
    );
    fake.reply('Still here.');
    await chat(owner.agent, 'And now?', { conversationId }).expect(200);
    const [{ count, hello }] = await db.query(
      `SELECT count(*)::int AS count,
              count(*) FILTER (WHERE content::text LIKE '%Hello%')::int AS hello
       FROM agent_message WHERE conversation_id = $1`,
      [conversationId],
    );
    expect(count).toBe(STORED_MESSAGES);
    expect(hello).toBe(0);
  });
});
