import '../../support/hooks-on';

import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { SessionService } from '../../../src/auth/sessions/session.service';
import { HeartbeatSchedule } from '../../../src/hooks/runs/heartbeat.schedule';
import { FakeChat } from '../../fakes/chat';
import { FakeLlm } from '../../fakes/llm';
import type { TestApp } from '../../support/app';
import { hooksWithChat } from '../../support/hooks-with-chat';
import { eventually, sleep } from '../../support/eventually';
import { ownerWithOrg } from '../../support/world';

describe('gateway hooks: heartbeats and hook runs (issue 24)', () => {
  let t: TestApp;
  let llm: FakeLlm;
  let chat: FakeChat;

  const app = hooksWithChat();
  beforeAll(() => ({ t, llm, chat } = app));
  const hook = (path: string, body: object) => app.hook(path, body);

  /** An organization with its team (a member opened a chat session). */
  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Hooked Inc.');
    const { teamName } = (
      await owner.agent.post('/api/v1/chat/session').send({ organizationId: org.id }).expect(200)
    ).body;
    const team = [...chat.teams.values()].find((x) => x.name === teamName)!;
    /** `private`: the team's private channel, where every reply goes (issue 35). */
    const postsIn = (channel: string) => {
      const id = [...chat.channels.values()].find(
        (c) =>
          c.team_id === team.id && (channel === 'private' ? c.type === 'P' : c.name === channel),
      )?.id;
      return chat.posts.filter((p) => p.channel_id === id).map((p) => p.message);
    };
    return { owner, org, postsIn };
  }

  const systemLines = (body: unknown) => JSON.stringify(body).match(/System: [^\\<]*/g) ?? [];

  it('wake now runs one heartbeat and posts its reply; next-heartbeat waits for the next one', async () => {
    const { org, postsIn } = await world();
    await hook('wake', {
      text: 'Invoice 42 was paid',
      mode: 'next-heartbeat',
      organization: org.id,
    }).expect(200, { ok: true, mode: 'next-heartbeat' });
    await sleep(300);
    expect(llm.requests).toHaveLength(0);

    llm.reply('Invoice 42 is paid, and the board meets Friday.');
    await hook('wake', { text: 'Board meeting Friday', organization: org.id }).expect(200, {
      ok: true,
      mode: 'now',
    });
    await eventually(async () => postsIn('private').length > 0);
    expect(postsIn('private')).toEqual(['Invoice 42 is paid, and the board meets Friday.']);
    expect(llm.requests).toHaveLength(1);
    expect(systemLines(llm.lastBody().messages)).toEqual([
      'System: Invoice 42 was paid',
      'System: Board meeting Friday',
    ]);
  });

  it('HEARTBEAT_OK posts nothing and leaves no trace in the main conversation', async () => {
    const { owner, org, postsIn } = await world();
    llm.reply('HEARTBEAT_OK');
    await hook('wake', { text: 'Nothing much', organization: org.id }).expect(200);
    await eventually(async () => llm.requests.length === 1);
    await sleep(300);
    expect(postsIn('private')).toEqual([]);
    const { mainConversationId } = (
      await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200)
    ).body;
    const [{ count }] = await t
      .get<DataSource>(DataSource)
      .query(`SELECT count(*)::int AS count FROM agent_message WHERE conversation_id = $1`, [
        mainConversationId,
      ]);
    expect(count).toBe(0);
  });

  it('runs an agent hook: 202, its reply delivered, its summary in the next heartbeat, its session key continued', async () => {
    const { org, postsIn } = await world();
    llm.reply('Deal closed: Acme signed.');
    llm.reply('Noted: the Acme deal closed.');
    const res = await hook('agent', {
      message: 'CRM: deal Acme closed',
      name: 'CRM',
      sessionKey: 'hook:crm:acme',
      organization: org.id,
      to: 'announcements',
    }).expect(202);
    expect(res.body).toEqual({ ok: true, runId: expect.any(String) });
    // The run's reply, then (wakeMode now, the default) the heartbeat that saw its summary, both
    // in the private channel: `to` chooses no channel Shareholders may be in.
    await eventually(async () => postsIn('private').length === 2);
    expect(postsIn('announcements')).toEqual([]);
    expect(postsIn('private')).toEqual([
      'Deal closed: Acme signed.',
      'Noted: the Acme deal closed.',
    ]);
    expect(systemLines(llm.requests[1].body.messages)).toEqual([
      'System: Hook CRM: Deal closed: Acme signed.',
    ]);

    llm.reset();
    llm.reply('Second update noted.');
    await hook('agent', {
      message: 'CRM: Acme paid',
      name: 'CRM',
      sessionKey: 'hook:crm:acme',
      organization: org.id,
      wakeMode: 'next-heartbeat',
      model: 'claude-haiku-4-5',
      thinking: 'low',
    }).expect(202);
    await eventually(async () => llm.requests.length === 1);
    const text = JSON.stringify(llm.requests[0].body.messages);
    expect(text).toContain('deal Acme closed');
    expect(text).toContain('Acme paid');
    // The run's model and thinking level reach the model's request.
    expect(llm.requests[0].body).toMatchObject({
      model: 'claude-haiku-4-5',
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it('reads as a Viewer and only proposes writes: the step waits in the main conversation for a member', async () => {
    const { owner, org } = await world();
    llm.toolUse([
      { name: 'list_share_classes', input: {} },
      { name: 'create_legend', input: { name: 'Hooked', text: 'From a hook.' } },
    ]);
    llm.reply('I proposed the legend.');
    await hook('agent', { message: 'Add a legend', organization: org.id, deliver: false }).expect(
      202,
    );
    await eventually(async () => llm.requests.length >= 2);
    const results = JSON.stringify(llm.requests[1].body.messages);
    expect(results).not.toContain('"is_error":true');
    const { mainConversationId } = (
      await owner.agent.get(`/v1/organization/${org.id}/agent/context`).expect(200)
    ).body;
    const [step] = await eventually(async () => {
      const rows = await t
        .get<DataSource>(DataSource)
        .query(`SELECT id, status FROM agent_step WHERE conversation_id = $1`, [
          mainConversationId,
        ]);
      return rows.length ? rows : undefined;
    });
    expect(step.status).toBe('pending');
    expect(
      ((await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200)).body as []).length,
    ).toBe(0);
    const confirmed = await owner.agent
      .post('/v1/agent/confirm')
      .send({ stepId: step.id, confirmed: true })
      .expect(200);
    expect(confirmed.body.status).toBe('executed');
    const legends = (await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200))
      .body as {
      name: string;
    }[];
    expect(legends.map((l) => l.name)).toEqual(['Hooked']);
  });

  it('acts through a system account that can never log in', async () => {
    const { org } = await world();
    llm.reply('HEARTBEAT_OK');
    await hook('wake', { text: 'ping', organization: org.id }).expect(200);
    await eventually(async () => llm.requests.length === 1);
    const [actor] = await t.get<DataSource>(DataSource).query(
      `SELECT a.user_id, u.email, u.password_hash, u.system FROM agent_hook_actor a
         JOIN user_account u ON u.id = a.user_id WHERE a.organization_id = $1`,
      [org.id],
    );
    expect(actor).toMatchObject({ system: true, password_hash: null });
    expect(actor.email).toMatch(/\.invalid$/);
    await expect(
      t.get<SessionService>(SessionService).logIn({} as Request, actor.user_id),
    ).rejects.toMatchObject({ status: 401 });
  });

  // Once per period across instances, on the moved clock: test/service/hooks/heartbeat-schedule.spec.ts.
  it('runs the periodic heartbeat for organizations with pending events', async () => {
    const { org, postsIn } = await world();
    await hook('wake', {
      text: 'Quarterly report filed',
      mode: 'next-heartbeat',
      organization: org.id,
    }).expect(200);
    await sleep(200);
    expect(llm.requests).toHaveLength(0);
    // Other tests' organizations may have events pending too: each gets this answer.
    llm.reply('The quarterly report is filed.', { times: 5 });
    expect(await t.get<HeartbeatSchedule>(HeartbeatSchedule).beat()).toBeGreaterThanOrEqual(1);
    await eventually(async () => postsIn('private').length === 1);
    const ours = llm.requests.filter((r) => JSON.stringify(r.body.system).includes(org.id));
    expect(ours).toHaveLength(1);
  });

  it('reports a failed run to the main conversation as an error summary, and delivers nothing', async () => {
    const { org, postsIn } = await world();
    llm.overloaded({ times: 3 }); // the first attempt and LLM_MAX_RETRIES (2) more
    llm.reply('The CI run could not be handled.');
    await hook('agent', { message: 'CI failed on main', name: 'CI', organization: org.id }).expect(
      202,
    );
    // The run's three attempts, then the main conversation's turn that reads the summary. A
    // periodic heartbeat of another test's organization may ask the model in between: only this
    // organization's requests count.
    const ours = () => llm.requests.filter((r) => JSON.stringify(r.body.system).includes(org.id));
    await eventually(async () => ours().some((r) => systemLines(r.body.messages).length), 15_000);
    const summaries = ours().filter((r) => systemLines(r.body.messages).length);
    expect(summaries.map((r) => systemLines(r.body.messages))).toEqual([
      [expect.stringMatching(/^System: Hook CI \(error\): /)],
    ]);
    await eventually(async () => postsIn('private').length === 1);
    expect(postsIn('private')).toEqual(['The CI run could not be handled.']);
  });
});
