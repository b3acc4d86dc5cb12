import '../../support/agent-on';
import { DataSource } from 'typeorm';
import { Conversations } from '../../../src/agent/store/conversations';
import { Scheduler } from '../../../src/scheduler';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const MAX = 3;
const RETENTION_DAYS = 30;

describe('conversations are bounded per user and deleted when idle (issue 35 section 3)', () => {
  let t: TestApp;
  let db: DataSource;
  let conversations: Conversations;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        LLM_BASE_URL: 'http://127.0.0.1:9',
        AGENT_MAX_CONVERSATIONS_PER_USER: String(MAX),
        AGENT_CONVERSATION_RETENTION_DAYS: String(RETENTION_DAYS),
      },
    });
    db = t.get<DataSource>(DataSource);
    conversations = t.get<Conversations>(Conversations);
  });
  afterAll(() => t.close());

  /** Makes a conversation look last used `days` ago. */
  const idleFor = (id: string, days: number) =>
    db.query(
      `UPDATE agent_conversation SET updated = now() - make_interval(days => $2) WHERE id = $1`,
      [id, days],
    );

  const idsOf = async (userId: string) =>
    (
      (await db.query(`SELECT id FROM agent_conversation WHERE user_id = $1 ORDER BY created`, [
        userId,
      ])) as { id: string }[]
    ).map((r) => r.id);

  it('keeps at most AGENT_MAX_CONVERSATIONS_PER_USER: a new one deletes the least recently used', async () => {
    const owner = await loggedInAgent(t);
    const a = await createOrg(owner.agent, 'A Inc.');
    const b = await createOrg(owner.agent, 'B Inc.');
    const made = [];
    // Across the user's organizations.
    for (const org of [a, b, a]) made.push(await conversations.start(org.id, owner.user.id));
    await idleFor(made[0].id, 1);
    await idleFor(made[1].id, 3);
    await idleFor(made[2].id, 2);
    // Used just now: the oldest by creation is not the least recently used.
    await conversations.append(made[0].id, 'user', [{ type: 'text', text: 'still here' }], {
      authorId: owner.user.id,
    });
    const fourth = await conversations.start(b.id, owner.user.id);
    expect((await idsOf(owner.user.id)).sort()).toEqual([made[0].id, made[2].id, fourth.id].sort());
    // Another user's are their own.
    const other = await loggedInAgent(t);
    const theirs = await createOrg(other.agent, 'C Inc.');
    await conversations.start(theirs.id, other.user.id);
    expect(await idsOf(owner.user.id)).toHaveLength(MAX);
    expect(await idsOf(other.user.id)).toHaveLength(1);
  });

  it('deletes conversations idle for AGENT_CONVERSATION_RETENTION_DAYS with their messages', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Retention Inc.');
    const old = await conversations.start(org.id, owner.user.id, [
      { role: 'user', content: 'long ago' },
      { role: 'assistant', content: 'indeed' },
    ]);
    const recent = await conversations.start(org.id, owner.user.id);
    const main = await conversations.main(org.id);
    await idleFor(old.id, RETENTION_DAYS + 1);
    await idleFor(main.id, RETENTION_DAYS + 5);
    await idleFor(recent.id, RETENTION_DAYS - 1);
    expect(await t.get<Scheduler>(Scheduler).run('agent:conversation-cleanup')).toBe(2);
    const left = (
      (await db.query(`SELECT id FROM agent_conversation WHERE organization_id = $1`, [
        org.id,
      ])) as { id: string }[]
    ).map((r) => r.id);
    expect(left).toEqual([recent.id]);
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM agent_message WHERE conversation_id = $1`,
      [old.id],
    );
    expect(count).toBe(0);
  });

  it('counts a conversation used when a message is added to it', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Touch Inc.');
    const conversation = await conversations.start(org.id, owner.user.id);
    await idleFor(conversation.id, RETENTION_DAYS + 1);
    await conversations.append(conversation.id, 'user', [{ type: 'text', text: 'back' }], {
      authorId: owner.user.id,
    });
    await t.get<Scheduler>(Scheduler).run('agent:conversation-cleanup');
    expect(await idsOf(owner.user.id)).toEqual([conversation.id]);
  });
});
