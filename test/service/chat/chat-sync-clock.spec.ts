import { DataSource } from 'typeorm';
import { ChatSync } from '../../../src/chat/chat-sync.service';
import { FakeChat } from '../../fakes/chat';
import { createTestApp, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const DAY = 24 * 3600_000;

/**
 * Chat sync follows membership, and membership's times are the app's clock: an invitation lives
 * 7 days, a removal is stamped when it happens. The test moves the clock past an invitation's
 * life instead of waiting a week, and reads the team through the sync itself.
 */
describe('chat sync of a team, by moving the clock (service level)', () => {
  const clock = new TestClock().freeze();
  let t: TestApp;
  let chat: FakeChat;
  beforeAll(async () => {
    chat = await FakeChat.start();
    t = await createTestApp({ env: chat.env(), overrides: clock.override });
  });
  afterAll(async () => {
    await t.close();
    await chat.close();
  });

  it('an invitation accepted within its 7 days joins the team; one past them joins nothing', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Synced Inc.');
    const { teamName } = (
      await owner.agent.post('/api/v1/chat/session').send({ organizationId: org.id }).expect(200)
    ).body;
    const team = [...chat.teams.values()].find((x) => x.name === teamName)!;
    const joiner = await loggedInAgent(t);
    const inTeam = () => {
      const user = [...chat.users.values()].find((u) => u.email === joiner.email);
      return Boolean(user && chat.members(team.id).some((m) => m.user_id === user.id));
    };
    const invite = async () => {
      await owner.agent
        .post(`/v1/organization/${org.id}/member/invite`)
        .send({ email: joiner.email, role: 'Editor' })
        .expect(201);
      const pending = (await joiner.agent.get('/v1/user/invitations').expect(200)).body as {
        id: string;
        organization: { id: string };
        expiresAt: string;
      }[];
      return pending.find((i) => i.organization.id === org.id)!;
    };
    const sync = t.get<ChatSync>(ChatSync);

    const first = await invite();
    expect(Date.parse(first.expiresAt)).toBe(clock.nowMs() + 7 * DAY);
    // A second past its life: neither listed nor accepted; the team keeps the owner alone.
    clock.advance(7 * DAY + 1000);
    expect((await joiner.agent.get('/v1/user/invitations').expect(200)).body).toEqual([]);
    await joiner.agent.post(`/v1/user/invitations/${first.id}/accept`).send().expect(404);
    expect(await sync.syncOrganization(org.id)).toEqual({ synced: 1 });
    expect(inTeam()).toBe(false);

    // Invited again at the moved time: accepted, the queue brings the joiner into the team.
    const second = await invite();
    expect(Date.parse(second.expiresAt)).toBe(clock.nowMs() + 7 * DAY);
    clock.advance(7 * DAY - 1000);
    const member = (
      await joiner.agent.post(`/v1/user/invitations/${second.id}/accept`).send().expect(200)
    ).body as { id: string };
    await eventually(async () => inTeam());
    expect(await sync.syncOrganization(org.id)).toEqual({ synced: 2 });

    // A removal is stamped at the clock's time, and takes the member out of the team.
    clock.advance(DAY);
    await owner.agent.delete(`/v1/organization/${org.id}/member/${member.id}`).expect(200);
    const [removed] = (await t
      .get<DataSource>(DataSource)
      .query(`SELECT removed_at FROM member WHERE id = $1`, [member.id])) as {
      removed_at: Date;
    }[];
    expect(removed.removed_at.getTime()).toBe(clock.nowMs());
    await eventually(async () => !inTeam());
    expect(await sync.syncOrganization(org.id)).toEqual({ synced: 1 });
  });
});
