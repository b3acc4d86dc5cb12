import '../../support/hooks-on';

import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { HookTurns } from '../../../src/agent';
import { HOUR, Scheduler } from '../../../src/scheduler';
import { FakeChat } from '../../fakes/chat';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const MINUTE = 60_000;
const DAY = 24 * HOUR;
const HEARTBEAT = 'hooks:heartbeat';
const CLEANUP = 'agent:system-event-cleanup';

/**
 * Gateway hook runs and heartbeats on the app's clock: a hook run's summary waits for the
 * periodic heartbeat (HOOKS_HEARTBEAT_EVERY, once per period across instances), and a wake left
 * pending a week goes with the daily retention. The test moves the clock; it sleeps through no
 * period.
 */
describe('gateway hook runs and heartbeats, by moving the clock (service level)', () => {
  // Five minutes into an hour: the moves below stay in it, or cross into the next.
  const clock = new TestClock().freeze(Math.ceil(Date.now() / HOUR) * HOUR + 5 * MINUTE);
  const token = randomBytes(24).toString('hex');
  let t: TestApp;
  let llm: FakeLlm;
  let chat: FakeChat;
  let scheduler: Scheduler;
  beforeAll(async () => {
    llm = await FakeLlm.start();
    chat = await FakeChat.start();
    t = await createTestApp({
      env: {
        ...llm.env(),
        ...chat.env(),
        HOOKS_ENABLED: 'true',
        HOOKS_TOKEN: token,
        HOOKS_HEARTBEAT_EVERY: '1h',
      },
      overrides: clock.override,
    });
    scheduler = t.get<Scheduler>(Scheduler);
  });
  beforeEach(() => llm.reset());
  afterAll(async () => {
    await t.close();
    await llm.close();
    await chat.close();
  });

  const hook = (path: string, body: object) =>
    t.http.post(`/hooks/${path}`).set('Authorization', `Bearer ${token}`).send(body);
  const pending = async (organizationId: string) =>
    (await t.get<HookTurns>(HookTurns).pendingOrganizations()).includes(organizationId);

  /** An organization with its team (a member opened a chat session), and its channel's posts. */
  async function world() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Hooked Inc.');
    const { teamName } = (
      await owner.agent.post('/api/v1/chat/session').send({ organizationId: org.id }).expect(200)
    ).body;
    const team = [...chat.teams.values()].find((x) => x.name === teamName)!;
    const posts = () => {
      const id = [...chat.channels.values()].find(
        (c) => c.team_id === team.id && c.type === 'P',
      )?.id;
      return chat.posts.filter((p) => p.channel_id === id).map((p) => p.message);
    };
    return { org, posts };
  }

  it('an agent run’s summary waits for the hour’s heartbeat, which runs once an hour across instances', async () => {
    expect(scheduler.list()).toContainEqual({ name: HEARTBEAT, every: HOUR });
    const { org, posts } = await world();
    const run = async (message: string, reply: string) => {
      llm.reply(reply);
      const before = llm.requests.length;
      await hook('agent', {
        message,
        name: 'CI',
        organization: org.id,
        wakeMode: 'next-heartbeat',
        deliver: false,
      }).expect(202);
      await eventually(async () => llm.requests.length === before + 1 && (await pending(org.id)));
    };

    await run('CI failed on main', 'The build on main is red.');
    // Nothing took the summary: no heartbeat runs before the schedule's.
    expect(llm.requests).toHaveLength(1);
    expect(posts()).toEqual([]);

    llm.reply('CI is red; someone should look.');
    expect(await scheduler.tick(HEARTBEAT)).toBe(true);
    await eventually(async () => posts().length === 1);
    expect(posts()).toEqual(['CI is red; someone should look.']);
    expect(JSON.stringify(llm.lastBody().messages)).toContain(
      'System: Hook CI: The build on main is red.',
    );
    expect(await pending(org.id)).toBe(false);

    // Half an hour later, another summary: the hour's turn is taken (here or elsewhere).
    clock.advance(30 * MINUTE);
    await run('Deploy finished', 'Deployed.');
    expect(await scheduler.tick(HEARTBEAT)).toBe(false);
    expect(await pending(org.id)).toBe(true);
    expect(llm.requests).toHaveLength(3);

    // The next hour's heartbeat takes it.
    clock.advance(30 * MINUTE);
    llm.reply('The deploy is out.');
    expect(await scheduler.tick(HEARTBEAT)).toBe(true);
    await eventually(async () => posts().length === 2);
    expect(posts()[1]).toBe('The deploy is out.');
    expect(await pending(org.id)).toBe(false);
  });

  it('a wake left pending a week goes with the day’s retention, once a day across instances', async () => {
    const { org } = await world();
    await hook('wake', { text: 'Stale news', mode: 'next-heartbeat', organization: org.id }).expect(
      200,
    );
    const events = () =>
      t
        .get<DataSource>(DataSource)
        .query(`SELECT text FROM agent_system_event WHERE organization_id = $1`, [org.id]);
    expect(await events()).toEqual([{ text: 'Stale news' }]);

    // A day later it is kept (the day's turn runs, and finds it young).
    clock.advance(DAY);
    expect(await scheduler.tick(CLEANUP)).toBe(true);
    expect(await events()).toHaveLength(1);

    // Eight days later it is a week old; the day's second ask finds the turn taken.
    clock.advance(7 * DAY);
    expect(await scheduler.tick(CLEANUP)).toBe(true);
    expect(await events()).toEqual([]);
    expect(await scheduler.tick(CLEANUP)).toBe(false);
  });
});
