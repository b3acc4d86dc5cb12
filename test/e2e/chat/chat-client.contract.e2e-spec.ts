import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { ChatClient, ChatClientOptions } from '../../../src/chat/chat.client';
import { ChatApiError } from '../../../src/chat/chat-api.error';
import type { ChatTeam, ChatUser } from '../../../src/chat/chat.wire';
import { validateEnv } from '../../../src/config';
import { FakeChat } from '../../fakes/chat';
import { listenOnFreePort } from '../../fakes/listen';

/**
 * ChatClient's contract with the messaging server: the same suite runs against FakeChat and,
 * when CHAT_CONTRACT_URL and CHAT_CONTRACT_ADMIN_TOKEN are set (a Mattermost server with
 * personal access tokens enabled, the token a system admin's), against that server, so that
 * the fake answers what the server answers. What only the fake can do (faults, 200+ members,
 * tokens switched off, its record of requests) is a suite of its own. Names carry a random part:
 * a real server keeps what a run made.
 */

interface Target {
  name: string;
  env(): Promise<{ env: Record<string, string>; close(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'FakeChat',
    env: async () => {
      const fake = await FakeChat.start();
      return { env: fake.env(), close: () => fake.close() };
    },
  },
];
const contractUrl = process.env.CHAT_CONTRACT_URL;
const contractToken = process.env.CHAT_CONTRACT_ADMIN_TOKEN;
if (contractUrl && contractToken) {
  targets.push({
    name: `the server at ${contractUrl}`,
    env: async () => ({
      env: { CHAT_URL: contractUrl, CHAT_ADMIN_TOKEN: contractToken },
      close: async () => undefined,
    }),
  });
}

const clientFor = (env: Record<string, string>, options: Partial<ChatClientOptions> = {}) =>
  new ChatClient(validateEnv({ NODE_ENV: 'test', ...env }), options);

/** A fresh name part per call: lower-case, starting with a letter. */
const unique = () => `t${randomBytes(5).toString('hex')}`;

const newUser = (client: ChatClient, name = unique()) =>
  client.createUser({
    email: `${name}@ledgerline.example.test`,
    username: name,
    password: 'Contract-Passw0rd!',
    first_name: 'Ada',
    last_name: 'Lovelace',
  });

const newTeam = (client: ChatClient, name = `ll-${unique()}`) =>
  client.createTeam({ name, display_name: `Ledgerline ${name}`, type: 'I' });

/** What `promise` rejected with, which must be a ChatApiError. */
async function apiError(promise: Promise<unknown>): Promise<ChatApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatApiError);
  return error as ChatApiError;
}

describe.each(targets)('ChatClient against $name', (target) => {
  let env: Record<string, string>;
  let close: () => Promise<void>;
  let client: ChatClient;

  beforeAll(async () => {
    ({ env, close } = await target.env());
    client = clientFor(env);
  });

  afterAll(() => close());

  describe('users', () => {
    it('answers null for an e-mail no user has', async () => {
      expect(await client.userByEmail(`${unique()}@nobody.example.test`)).toBeNull();
    });

    it('creates a user, found by e-mail afterwards', async () => {
      const name = unique();
      const user = await newUser(client, name);
      expect(user).toMatchObject({
        username: name,
        email: `${name}@ledgerline.example.test`,
        first_name: 'Ada',
        last_name: 'Lovelace',
      });
      expect(user.id).toMatch(/^[a-z0-9]{26}$/);
      expect((await client.userByEmail(user.email))?.id).toBe(user.id);
    });

    it('refuses a taken username and a taken e-mail with their error ids', async () => {
      const user = await newUser(client);
      const sameName = await apiError(
        client.createUser({
          email: `${unique()}@ledgerline.example.test`,
          username: user.username,
          password: 'Contract-Passw0rd!',
        }),
      );
      expect(sameName).toMatchObject({
        status: 400,
        id: 'app.user.save.username_exists.app_error',
      });
      const sameEmail = await apiError(
        client.createUser({
          email: user.email,
          username: unique(),
          password: 'Contract-Passw0rd!',
        }),
      );
      expect(sameEmail).toMatchObject({ status: 400, id: 'app.user.save.email_exists.app_error' });
    });
  });

  describe('personal access tokens', () => {
    it('makes a token that authenticates its user until it is revoked', async () => {
      const user = await newUser(client);
      const token = await client.createToken(user.id, 'Ledgerline contract test');
      expect(token).toMatchObject({ user_id: user.id, description: 'Ledgerline contract test' });
      expect(token.token).toEqual(expect.any(String));

      expect((await client.me(token.token)).id).toBe(user.id);
      await client.revokeToken(token.id);
      const refused = await apiError(client.me(token.token));
      expect(refused).toMatchObject({ status: 401, id: 'api.context.session_expired.app_error' });
    });

    it('answers 401 to an admin token the server does not know', async () => {
      const stranger = clientFor({ ...env, CHAT_ADMIN_TOKEN: 'not-a-token-of-this-server' });
      const refused = await apiError(stranger.teamByName('town-square'));
      expect(refused).toMatchObject({ status: 401, id: 'api.context.session_expired.app_error' });
    });
  });

  describe('teams and channels', () => {
    let team: ChatTeam;

    it('finds no team of an unused name, then the team it creates', async () => {
      const name = `ll-${unique()}`;
      expect(await client.teamByName(name)).toBeNull();
      team = await newTeam(client, name);
      expect(team).toMatchObject({ name, display_name: `Ledgerline ${name}`, type: 'I' });
      expect(await client.teamByName(name)).toMatchObject({ id: team.id, name });
      const again = await apiError(newTeam(client, name));
      expect(again).toMatchObject({ status: 400, id: 'app.team.save.existing.app_error' });
    });

    it("has the server's own channels, and creates others", async () => {
      expect(await client.channelByName(team.id, 'town-square')).toMatchObject({
        team_id: team.id,
        name: 'town-square',
      });
      expect(await client.channelByName(team.id, 'announcements')).toBeNull();
      const created = await client.createChannel({
        team_id: team.id,
        name: 'announcements',
        display_name: 'Announcements',
        type: 'O',
      });
      expect(created).toMatchObject({ team_id: team.id, name: 'announcements', type: 'O' });
      expect((await client.channelByName(team.id, 'announcements'))?.id).toBe(created.id);
      const again = await apiError(
        client.createChannel({
          team_id: team.id,
          name: 'announcements',
          display_name: 'A',
          type: 'O',
        }),
      );
      expect(again).toMatchObject({
        status: 400,
        id: 'store.sql_channel.save_channel.exists.app_error',
      });
    });

    it('posts to a channel', async () => {
      const channel = await client.channelByName(team.id, 'town-square');
      const post = await client.createPost(channel!.id, 'Welcome to Ledgerline');
      expect(post).toMatchObject({ channel_id: channel!.id, message: 'Welcome to Ledgerline' });
    });
  });

  describe('team members', () => {
    let team: ChatTeam;
    let ada: ChatUser;
    let bob: ChatUser;

    beforeAll(async () => {
      team = await newTeam(client);
      [ada, bob] = await Promise.all([newUser(client), newUser(client)]);
    });

    const memberIds = async () => (await client.teamMembers(team.id)).map((m) => m.user_id);

    it('adds a member once, however often asked', async () => {
      const first = await client.addTeamMember(team.id, ada.id);
      expect(first).toMatchObject({ team_id: team.id, user_id: ada.id, delete_at: 0 });
      const second = await client.addTeamMember(team.id, ada.id);
      expect(second).toMatchObject({ team_id: team.id, user_id: ada.id, delete_at: 0 });
      await client.addTeamMember(team.id, bob.id);
      const ids = await memberIds();
      expect(ids).toEqual(expect.arrayContaining([ada.id, bob.id]));
      expect(ids.filter((id) => id === ada.id)).toHaveLength(1);
    });

    it('removes a member, who may come back', async () => {
      await client.removeTeamMember(team.id, bob.id);
      expect(await memberIds()).not.toContain(bob.id);
      expect(await memberIds()).toContain(ada.id);
      expect(await client.addTeamMember(team.id, bob.id)).toMatchObject({ delete_at: 0 });
      expect(await memberIds()).toContain(bob.id);
    });

    it('keeps a private channel to the members it is given, its creator first', async () => {
      const channel = await client.createChannel({
        team_id: team.id,
        name: `private-${unique()}`,
        display_name: 'Cap table',
        type: 'P',
      });
      expect(channel).toMatchObject({ team_id: team.id, type: 'P' });
      const me = await client.self();
      expect(me.roles.split(' ')).toContain('system_admin');
      expect(await client.channelMembers(channel.id)).toEqual([me.id]);
      await client.addChannelMember(channel.id, ada.id);
      await client.addChannelMember(channel.id, ada.id);
      expect((await client.channelMembers(channel.id)).sort()).toEqual([ada.id, me.id].sort());
      await client.removeChannelMember(channel.id, ada.id);
      expect(await client.channelMembers(channel.id)).toEqual([me.id]);
      const again = await apiError(client.removeChannelMember(channel.id, ada.id));
      expect(again).toMatchObject({ status: 404, id: 'app.channel.get_member.missing.app_error' });
      // Only a member of the channel's team may join it.
      const outsider = await newUser(client);
      const refused = await apiError(client.addChannelMember(channel.id, outsider.id));
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await client.channelMembers(channel.id)).toEqual([me.id]);
    });

    it('refuses a member of a team that does not exist', async () => {
      const refused = await apiError(client.addTeamMember('a'.repeat(26), ada.id));
      expect(refused.status).toBe(404);
      expect(refused.id).not.toBe('');
    });
  });
});

describe('ChatClient against FakeChat only', () => {
  let fake: FakeChat;
  let client: ChatClient;

  beforeEach(async () => {
    fake = await FakeChat.start();
    client = clientFor(fake.env(), { timeoutMs: 300 });
  });

  afterEach(() => fake.close());

  it('sends the admin token, JSON and URL-encoded path segments', async () => {
    await client.userByEmail('ada+chat@example.test');
    await newUser(client);
    expect(fake.requests.map((r) => [r.method, r.path, r.bearer])).toEqual([
      ['GET', '/users/email/ada%2Bchat%40example.test', 'admin'],
      ['POST', '/users', 'admin'],
    ]);
    expect(fake.requests[1].body).toMatchObject({
      first_name: 'Ada',
      password: expect.any(String),
    });
  });

  it("sends a user's token for `me`", async () => {
    const user = await newUser(client);
    const token = await client.createToken(user.id, 'ledgerline');
    await client.me(token.token);
    expect(fake.requestsTo('GET', /^\/users\/me$/).map((r) => r.bearer)).toEqual(['user']);
    fake.revokeAll();
    expect(await apiError(client.me(token.token))).toMatchObject({ status: 401 });
  });

  it("joins a newcomer to the server's channels only, and a removed member leaves them", async () => {
    const team = await newTeam(client);
    await client.createChannel({
      team_id: team.id,
      name: 'announcements',
      display_name: 'Announcements',
      type: 'O',
    });
    const ada = await newUser(client);
    await client.addTeamMember(team.id, ada.id);
    expect(fake.channelsOf(team.id, ada.id)).toEqual(['off-topic', 'town-square']);
    await client.removeTeamMember(team.id, ada.id);
    expect(fake.channelsOf(team.id, ada.id)).toEqual([]);
    expect(fake.members(team.id).map((m) => m.user_id)).toEqual([fake.admin.id]);
  });

  it('reads members across pages of 200', async () => {
    const team = await newTeam(client);
    for (let i = 0; i < 250; i++) {
      const user = fake.seedUser({ email: `member${i}@example.test`, username: `member${i}` });
      fake.seedMember(team.id, user.id);
    }
    const members = await client.teamMembers(team.id);
    expect(members).toHaveLength(251); // and the admin bot, the team's creator
    expect(new Set(members.map((m) => m.user_id)).size).toBe(251);
    expect(fake.requestsTo('GET', /\/members$/).map((r) => r.query)).toEqual([
      { page: '0', per_page: '200' },
      { page: '1', per_page: '200' },
    ]);
  });

  it('stops paging at its bound', async () => {
    const team = await newTeam(client);
    for (let i = 0; i < 400; i++) {
      fake.seedMember(
        team.id,
        fake.seedUser({ email: `m${i}@example.test`, username: `m${i}` }).id,
      );
    }
    const bounded = clientFor(fake.env(), { maxPages: 2 });
    expect(await apiError(bounded.teamMembers(team.id))).toMatchObject({
      status: 0,
      id: 'too_many_pages',
    });
  });

  it('answers 501 app.user_access_token.disabled when the server has no personal tokens', async () => {
    const user = await newUser(client);
    const token = await client.createToken(user.id, 'before');
    fake.tokensDisabled = true;
    expect(await apiError(client.createToken(user.id, 'after'))).toMatchObject({
      status: 501,
      id: 'app.user_access_token.disabled',
    });
    expect(await apiError(client.me(token.token))).toMatchObject({ status: 401 });
  });

  it("reads the server's error body, and a proxy's page as id ''", async () => {
    fake.failNext(1, { path: /^\/teams/, status: 503 });
    expect(await apiError(client.teamByName('acme'))).toMatchObject({
      status: 503,
      id: 'fake.injected.app_error',
    });
    fake.failNext(1, { status: 502, body: '<html><body>Bad Gateway</body></html>' });
    const proxied = await apiError(client.teamByName('acme'));
    expect(proxied).toMatchObject({ status: 502, id: '' });
    expect(proxied.message).toContain('Bad Gateway');
    // Only the server's own 404 means "no such team".
    fake.failNext(1, { status: 404, body: 'Not Found' });
    expect(await apiError(client.teamByName('acme'))).toMatchObject({ status: 404, id: '' });
    expect(await client.teamByName('acme')).toBeNull();
  });

  it('gives up on a server that does not answer: status 0, timeout', async () => {
    fake.failNext(1, { status: 'hang' });
    const started = Date.now();
    const error = await apiError(client.teamByName('acme'));
    expect(error).toMatchObject({ status: 0, id: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);

    const user = await newUser(client);
    const token = await client.createToken(user.id, 'ledgerline');
    fake.failNext(1, { path: /^\/users\/me$/, status: 'hang' });
    expect(await apiError(client.me(token.token, 100))).toMatchObject({ id: 'timeout' });
  });

  it('reports a server that cannot be reached: status 0, network', async () => {
    const probe = createServer();
    const port = await listenOnFreePort(probe);
    await new Promise((resolve) => probe.close(resolve));
    const nowhere = clientFor({ ...fake.env(), CHAT_URL: `http://127.0.0.1:${port}` });
    const error = await apiError(nowhere.userByEmail('ada@example.test'));
    expect(error).toMatchObject({ status: 0, id: 'network' });
    expect(error.message).not.toContain(fake.adminToken);
  });

  it('sends nothing while messaging is not configured', async () => {
    const off = clientFor({});
    await expect(off.teamByName('acme')).rejects.toThrow(/not configured/);
    expect(fake.requests).toHaveLength(0);
  });

  it('answers unknown routes 404 with the server error body', async () => {
    const res = await fetch(`${fake.url}/api/v4/nothing/here`, {
      headers: { authorization: `Bearer ${fake.adminToken}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ id: 'api.context.404.app_error', status_code: 404 });
  });
});
