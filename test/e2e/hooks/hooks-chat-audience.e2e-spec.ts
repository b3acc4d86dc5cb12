import '../../support/hooks-on';
import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { QueueName } from '../../../src/events';
import type { ChatChannel } from '../../../src/chat/chat.wire';
import { FakeChat } from '../../fakes/chat';
import { FakeLlm } from '../../fakes/llm';
import type { TestApp } from '../../support/app';
import { hooksWithChat } from '../../support/hooks-with-chat';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import { ownerWithOrg } from '../../support/world';

/**
 * Issue 35, section 2: the agent's hook and heartbeat replies carry cap-table facts, so they go
 * only to the team's private channel, whose members are kept to those whose role holds
 * `canViewCapTable` (on session, sync, member events, and again before every post).
 */
describe('gateway hooks: replies reach only who may read the cap table (issue 35)', () => {
  let t: TestApp;
  let llm: FakeLlm;
  let chat: FakeChat;

  const app = hooksWithChat();
  beforeAll(() => ({ t, llm, chat } = app));
  const hook = (path: string, body: object) => app.hook(path, body);

  const session = async (agent: Agent, organizationId: string) =>
    (await agent.post('/api/v1/chat/session').send({ organizationId }).expect(200)).body as {
      teamName: string;
      chatUserId: string;
    };

  /** An organization whose Owner, Viewer and Shareholder each opened a chat session. */
  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Audience Inc.');
    const { teamName, chatUserId: ownerChat } = await session(owner.agent, org.id);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const viewerChat = (await session(viewer.agent, org.id)).chatUserId;
    const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const shareholderChat = (await session(shareholder.agent, org.id)).chatUserId;
    const team = [...chat.teams.values()].find((x) => x.name === teamName)!;
    const channelsOfTeam = () => [...chat.channels.values()].filter((c) => c.team_id === team.id);
    const privateChannel = (): ChatChannel | undefined =>
      channelsOfTeam().find((c) => c.type === 'P');
    const postsIn = (name: string) => {
      const channel = channelsOfTeam().find((c) => c.name === name);
      return chat.posts.filter((p) => p.channel_id === channel?.id).map((p) => p.message);
    };
    /** The channel a reply went to, and who was in it when it was posted. */
    const delivered = async (message: string) => {
      const post = (await eventually(async () => chat.posts.find((p) => p.message === message)))!;
      return {
        channel: chat.channels.get(post.channel_id)!,
        audience: chat.postAudience.get(post.id),
      };
    };
    return {
      owner,
      org,
      team,
      viewer,
      shareholder,
      chatIds: { owner: ownerChat, viewer: viewerChat, shareholder: shareholderChat },
      privateChannel,
      postsIn,
      delivered,
    };
  }

  /** A member of a custom role that may read the cap table, with a chat session. */
  async function auditorOf(w: Awaited<ReturnType<typeof world>>) {
    const role = await w.owner.agent
      .post(`/v1/organization/${w.org.id}/role`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization', 'canViewCapTable'] })
      .expect(201);
    const auditor = await memberAgent(t, w.owner.agent, w.org.id, role.body.id);
    return { role, auditorChat: (await session(auditor.agent, w.org.id)).chatUserId };
  }

  it('posts a hook run’s reply to the private channel, whatever `to` names; no Shareholder is in it', async () => {
    const w = await world();
    const reply = `Acme holds 1,000,000 shares (${randomUUID()}).`;
    llm.reply(reply);
    await hook('agent', {
      message: 'Who holds what?',
      organization: w.org.id,
      to: 'town-square',
      wakeMode: 'next-heartbeat',
    }).expect(202);
    const { channel, audience } = await w.delivered(reply);
    expect(channel).toMatchObject({ team_id: w.team.id, type: 'P' });
    expect(audience).toEqual([chat.admin.id, w.chatIds.owner, w.chatIds.viewer].sort());
    expect(w.postsIn('town-square')).toEqual([]);
    // The Shareholder is in the team and its open channels, never in the private one.
    expect(chat.channelsOf(w.team.id, w.chatIds.shareholder)).toEqual(['off-topic', 'town-square']);
    expect(chat.channelMembersOf(channel.id)).not.toContain(w.chatIds.shareholder);
  });

  it('posts a heartbeat’s reply there too', async () => {
    const w = await world();
    const reply = `The board approved the option pool (${randomUUID()}).`;
    llm.reply(reply);
    await hook('wake', { text: 'Board minutes filed', organization: w.org.id }).expect(200);
    const { channel, audience } = await w.delivered(reply);
    expect(channel.type).toBe('P');
    expect(audience).not.toContain(w.chatIds.shareholder);
    expect(w.postsIn('town-square')).toEqual([]);
  });

  it('takes out, before it posts, whoever no longer may read the cap table or was added by hand', async () => {
    const w = await world();
    const { role, auditorChat } = await auditorOf(w);
    const channel = w.privateChannel()!;
    expect(chat.channelMembersOf(channel.id)).toEqual(
      [chat.admin.id, w.chatIds.owner, w.chatIds.viewer, auditorChat].sort(),
    );

    // The role loses the permission (a role's change is no member event) ...
    await w.owner.agent
      .put(`/v1/organization/${w.org.id}/role/${role.body.id}`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization'] })
      .expect(200);
    // ... a channel member adds the Shareholder, and someone the service does not know.
    chat.seedChannelMember(channel.id, w.chatIds.shareholder);
    const stranger = chat.seedUser({
      email: `stranger-${randomUUID()}@example.test`,
      username: `stranger${randomUUID().slice(0, 8)}`,
    });
    chat.seedMember(w.team.id, stranger.id);
    chat.seedChannelMember(channel.id, stranger.id);

    const reply = `Series A closed (${randomUUID()}).`;
    llm.reply(reply);
    await hook('agent', {
      message: 'Summarize',
      organization: w.org.id,
      wakeMode: 'next-heartbeat',
    }).expect(202);
    const { audience } = await w.delivered(reply);
    expect(audience).toEqual([chat.admin.id, w.chatIds.owner, w.chatIds.viewer].sort());
  });

  it('takes a member out as soon as their role loses the permission (role.updated)', async () => {
    const w = await world();
    const { role, auditorChat } = await auditorOf(w);
    const channel = w.privateChannel()!;
    expect(chat.channelMembersOf(channel.id)).toContain(auditorChat);
    // The member events so far handed over and consumed: none of them can be what takes him out.
    await eventually(async () => {
      const [{ n }] = (await t
        .get<DataSource>(DataSource)
        .query('SELECT count(*)::int AS n FROM outbox_event WHERE relayed_at IS NULL')) as {
        n: number;
      }[];
      const jobs = await t.get<Queue>(getQueueToken(QueueName.Chat)).getJobCounts();
      return n + jobs.waiting + jobs.active + jobs.delayed === 0;
    });
    expect(chat.channelMembersOf(channel.id)).toContain(auditorChat);
    await w.owner.agent
      .put(`/v1/organization/${w.org.id}/role/${role.body.id}`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization'] })
      .expect(200);
    // No post, no sync-org: the role's event alone.
    await eventually(async () => !chat.channelMembersOf(channel.id).includes(auditorChat));
    expect(chat.channelMembersOf(channel.id)).toEqual(
      [chat.admin.id, w.chatIds.owner, w.chatIds.viewer].sort(),
    );
  });

  it('keeps the private channel in step with member changes and sync-org', async () => {
    const w = await world();
    const channel = w.privateChannel()!;
    // The Viewer becomes a Shareholder: out of the private channel, still in the team.
    const viewerMember = w.viewer.member.id;
    await w.owner.agent
      .patch(`/v1/organization/${w.org.id}/member/${viewerMember}`)
      .send({ role: 'Shareholder' })
      .expect(200);
    await eventually(async () => !chat.channelMembersOf(channel.id).includes(w.chatIds.viewer));
    expect(chat.members(w.team.id).map((m) => m.user_id)).toContain(w.chatIds.viewer);
    // ... and back.
    await w.owner.agent
      .patch(`/v1/organization/${w.org.id}/member/${viewerMember}`)
      .send({ role: 'Editor' })
      .expect(200);
    await eventually(async () => chat.channelMembersOf(channel.id).includes(w.chatIds.viewer));

    // Added by hand, taken out by a sync.
    chat.seedChannelMember(channel.id, w.chatIds.shareholder);
    await w.owner.agent.post(`/api/v1/chat/sync-org/${w.org.id}`).expect(200);
    expect(chat.channelMembersOf(channel.id)).toEqual(
      [chat.admin.id, w.chatIds.owner, w.chatIds.viewer].sort(),
    );
  });
});
