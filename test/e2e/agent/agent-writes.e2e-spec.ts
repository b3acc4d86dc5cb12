import '../../support/agent-on';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

describe('agent writes without confirmation (AGENT_CONFIRM_WRITE_OPERATIONS=false)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await FakeLlm.start();
    t = await createTestApp({
      env: {
        ...fake.env(),
        AGENT_CONFIRM_WRITE_OPERATIONS: 'false',
        AGENT_MAX_WRITE_OPS_PER_MINUTE: '2',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('runs writes at once up to the write limit, then 429; destructive calls still wait', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Direct Inc.');
    const tools = (await owner.agent.get(`/v1/organization/${org.id}/agent/tools`).expect(200))
      .body as { name: string; requiresConfirmation: boolean }[];
    const confirmation = Object.fromEntries(tools.map((x) => [x.name, x.requiresConfirmation]));
    expect(confirmation).toMatchObject({ create_legend: false, delete_legend: true });
    const context = await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200);
    expect(context.body.capabilities.confirmWrites).toBe(false);

    fake.toolUse(
      ['A', 'B', 'C'].map((name) => ({ name: 'create_legend', input: { name, text: 'Text.' } })),
    );
    const res = await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Add three legends' })
      .expect(429);
    expect(res.headers['x-ratelimit-limit']).toBe('2');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const legends = (await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200))
      .body as { id: string; name: string }[];
    expect(legends.map((l) => l.name).sort()).toEqual(['A', 'B']);

    fake.toolUse([{ name: 'delete_legend', input: { legend: legends[0].id } }]).reply('Confirm?');
    const destructive = await owner.agent
      .post('/v1/agent/chat')
      .send({ organization: org.id, message: 'Delete A' })
      .expect(200);
    expect(destructive.body.pendingConfirmations).toMatchObject([
      { tool: 'delete_legend', kind: 'destructive' },
    ]);
    expect(
      ((await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200)).body as []).length,
    ).toBe(2);
  });
});
