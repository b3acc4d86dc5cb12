import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FakeChat } from '../../fakes/chat';
import { createTestApp, TestApp } from '../../support/app';
import { captureOutput } from '../../support/output';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const GATEWAY_TOKEN = 'gateway-token-of-the-messaging-gateway-0123456789';

describe('team messaging (spec 4.3, issue 26)', () => {
  let t: TestApp;
  let fake: FakeChat;
  let output: ReturnType<typeof captureOutput>;

  beforeAll(async () => {
    // Every line the process writes, to check no token is ever logged.
    output = captureOutput();
    fake = await FakeChat.start();
    t = await createTestApp({ env: { ...fake.env(), CHAT_GATEWAY_TOKEN: GATEWAY_TOKEN } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    output.restore();
  });

  const session = (agent: ReturnType<TestApp['agent']>, organizationId: unknown) =>
    agent.post('/api/v1/chat/session').send({ organizationId });

  it('tells whether chat is on: the public address, never without a session', async () => {
    const user = await loggedInAgent(t);
    await t.http.get('/api/v1/chat/config').expect(401);
    expect((await user.agent.get('/api/v1/chat/config').expect(200)).body).toEqual({
      enabled: true,
      baseUrl: 'https://chat.example.test',
    });
  });

  it('opens a session: one chat user, token and team, reused on the next call', async () => {
    const owner = await loggedInAgent(t, { name: 'Ada Lovelace' });
    const org = await createOrg(owner.agent, 'Chatty Inc.');
    const [first, second] = await Promise.all([
      session(owner.agent, org.id).expect(200),
      session(owner.agent, org.id).expect(200),
    ]);
    const teamName = `org-${org.id.replace(/-/g, '')}`;
    expect(first.body).toEqual({
      token: expect.any(String),
      baseUrl: 'https://chat.example.test',
      teamName,
      chatUserId: expect.any(String),
    });
    expect(second.body).toEqual(first.body);
    const mine = [...fake.users.values()].filter((u) => u.email === owner.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: first.body.chatUserId,
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    const teams = [...fake.teams.values()].filter((team) => team.name === teamName);
    expect(teams).toHaveLength(1);
    expect(teams[0].type).toBe('I');
    expect(fake.requestsTo('POST', /\/users\/[^/]+\/tokens$/)).toHaveLength(1);
    // The default channels, the one the server does not make included; the user is in the team.
    const channels = [...fake.channels.values()].filter((c) => c.team_id === teams[0].id);
    expect(channels.map((c) => c.name).sort()).toEqual([
      'announcements',
      'off-topic',
      'town-square',
    ]);
    expect(fake.members(teams[0].id).map((m) => m.user_id)).toContain(first.body.chatUserId);

    // The next call reuses the token (it still works) and makes nothing new.
    const again = await session(owner.agent, org.id).expect(200);
    expect(again.body.token).toBe(first.body.token);
    expect(fake.requestsTo('POST', /\/users\/[^/]+\/tokens$/)).toHaveLength(1);

    // Sealed at rest: the plaintext is in no row and in no log line.
    const [row] = await t
      .get<DataSource>(DataSource)
      .query(`SELECT token_ciphertext FROM chat_token WHERE user_id = $1`, [owner.user.id]);
    expect(row.token_ciphertext).not.toContain(first.body.token);
    expect(output.text().includes(first.body.token)).toBe(false);

    // A revoked token is replaced (and the old one revoked) on the next session.
    fake.revokeToken(first.body.token);
    const renewed = await session(owner.agent, org.id).expect(200);
    expect(renewed.body.token).not.toBe(first.body.token);
    expect(fake.requestsTo('POST', /\/users\/tokens\/revoke$/)).toHaveLength(1);
  });

  it('adopts a chat user with the same e-mail, and picks another username when it is taken', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const existing = fake.seedUser({
      email: owner.email,
      username: `pre-${randomUUID().slice(0, 8)}`,
    });
    expect((await session(owner.agent, org.id).expect(200)).body.chatUserId).toBe(existing.id);

    const taken = await loggedInAgent(t, {
      email: `same.name.${randomUUID().slice(0, 6)}@example.test`,
    });
    const local = taken.email.split('@')[0];
    fake.seedUser({ email: `someone-else-${local}@example.test`, username: local });
    await createOrg(taken.agent).then((o) => session(taken.agent, o.id).expect(200));
    const made = [...fake.users.values()].find((u) => u.email === taken.email)!;
    expect(made.username).toMatch(new RegExp(`^${local.replace(/\./g, '\\.')}-[0-9a-f]{4}$`));
  });

  it('refuses bad requests: 400, 401, 403 non-member, 404 no such organization', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const stranger = await loggedInAgent(t);
    await t.http.post('/api/v1/chat/session').send({ organizationId: org.id }).expect(401);
    await session(owner.agent, 'not-a-uuid').expect(400);
    await session(owner.agent, undefined).expect(400);
    await session(stranger.agent, org.id).expect(403);
    await session(owner.agent, randomUUID()).expect(404);
    // A Viewer may view the organization: a session is theirs too.
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await session(viewer.agent, org.id).expect(200);
  });

  it('answers 500 chatProvisioningFailed when the server refuses tokens', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    fake.tokensDisabled = true;
    try {
      const res = await session(owner.agent, org.id).expect(500);
      expect(res.body).toMatchObject({ key: 'chatProvisioningFailed' });
    } finally {
      fake.tokensDisabled = false;
    }
    fake.failNext(1, { path: /\/teams$/ });
    const failed = await session(owner.agent, org.id).expect(500);
    expect(failed.body).toMatchObject({ key: 'chatProvisioningFailed' });
    await session(owner.agent, org.id).expect(200);
  });

  it('checks the stored token: no_token, valid, check_failed, revoked then no_token', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await t.http.get('/api/v1/chat/token-health').expect(401);
    const health = async () =>
      (await owner.agent.get('/api/v1/chat/token-health').expect(200)).body;
    expect(await health()).toEqual({ valid: false, reason: 'no_token' });
    const { token } = (await session(owner.agent, org.id).expect(200)).body;
    expect(await health()).toEqual({ valid: true });
    fake.failNext(1, { path: /\/users\/me$/, status: 503 });
    expect(await health()).toEqual({ valid: false, reason: 'check_failed' });
    fake.revokeToken(token);
    expect(await health()).toEqual({ valid: false, reason: 'revoked' });
    expect(await health()).toEqual({ valid: false, reason: 'no_token' });
  });

  it('maps teams and chat users for the gateway, with its bearer token only', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const { chatUserId } = (await session(owner.agent, org.id).expect(200)).body;
    const team = [...fake.teams.values()].find(
      (x) => x.name === `org-${org.id.replace(/-/g, '')}`,
    )!;
    const gateway = (path: string, token = GATEWAY_TOKEN) =>
      t.http.get(`/api/v1/chat/${path}`).set('Authorization', `Bearer ${token}`);
    await t.http.get(`/api/v1/chat/team-mapping/${team.id}`).expect(401);
    await gateway(`team-mapping/${team.id}`, 'wrong').expect(401);
    await gateway(`team-mapping/${team.id}`, `${GATEWAY_TOKEN}x`).expect(401);
    // A session cookie is no gateway token.
    await owner.agent.get(`/api/v1/chat/team-mapping/${team.id}`).expect(401);
    expect((await gateway(`team-mapping/${team.id}`).expect(200)).body).toEqual({
      organizationId: org.id,
    });
    await gateway('team-mapping/nosuchteam').expect(404);
    expect((await gateway(`user-mapping/${chatUserId}`).expect(200)).body).toEqual({
      userId: owner.user.id,
    });
    expect((await gateway('user-mapping/unmapped').expect(200)).body).toEqual({ userId: null });
    await t.http.get(`/api/v1/chat/user-mapping/${chatUserId}`).expect(401);
  });

  it('syncs the team: members in, former members out, unmapped chat users untouched (250, paged)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Big Team');
    await session(owner.agent, org.id).expect(200);
    const team = [...fake.teams.values()].find(
      (x) => x.name === `org-${org.id.replace(/-/g, '')}`,
    )!;
    // 250 people added to the team by hand: never ours to remove.
    const outsiders = Array.from({ length: 250 }, (_, i) =>
      fake.seedUser({
        email: `hand-${i}-${org.id}@example.test`,
        username: `hand${i}x${org.id.slice(0, 8)}`,
      }),
    );
    for (const u of outsiders) fake.seedMember(team.id, u.id);
    const admin = await memberAgent(t, owner.agent, org.id, 'Admin');
    const leaving = await memberAgent(t, owner.agent, org.id, 'Editor');
    await session(leaving.agent, org.id).expect(200);
    const leavingChatId = [...fake.users.values()].find((u) => u.email === leaving.email)!.id;

    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await viewer.agent.post(`/api/v1/chat/sync-org/${org.id}`).expect(403);
    await (await loggedInAgent(t)).agent.post(`/api/v1/chat/sync-org/${org.id}`).expect(403);
    await t.http.post(`/api/v1/chat/sync-org/${org.id}`).expect(401);
    await owner.agent.post('/api/v1/chat/sync-org/not-a-uuid').expect(400);
    await owner.agent.post(`/api/v1/chat/sync-org/${randomUUID()}`).expect(404);

    // The leaving member's record goes without the queue telling the team (as if it were lost).
    await t
      .get<DataSource>(DataSource)
      .query(`UPDATE member SET status = 'removed' WHERE id = $1`, [leaving.member.id]);
    const synced = await admin.agent.post(`/api/v1/chat/sync-org/${org.id}`).expect(200);
    expect(synced.body).toEqual({ synced: 3 }); // owner, admin, viewer (leaving is gone)
    const present = new Set(fake.members(team.id).map((m) => m.user_id));
    for (const u of outsiders) expect(present.has(u.id)).toBe(true);
    expect(present.has(fake.admin.id)).toBe(true);
    expect(present.has(leavingChatId)).toBe(false);
    for (const email of [owner.email, admin.email, viewer.email]) {
      const chatUser = [...fake.users.values()].find((u) => u.email === email)!;
      expect(present.has(chatUser.id)).toBe(true);
    }
    expect(
      fake.requestsTo('GET', /\/teams\/[^/]+\/members$/).some((r) => r.query.page === '1'),
    ).toBe(true);
  });

  it('brings the team in step through the queue: an accepted invitation joins, a removal leaves', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await session(owner.agent, org.id).expect(200);
    const team = [...fake.teams.values()].find(
      (x) => x.name === `org-${org.id.replace(/-/g, '')}`,
    )!;
    const joiner = await memberAgent(t, owner.agent, org.id, 'Editor');
    const chatUser = await eventually(async () => {
      const u = [...fake.users.values()].find((x) => x.email === joiner.email);
      return u && fake.members(team.id).some((m) => m.user_id === u.id) ? u : undefined;
    });
    await owner.agent.delete(`/v1/organization/${org.id}/member/${joiner.member.id}`).expect(200);
    await eventually(async () => !fake.members(team.id).some((m) => m.user_id === chatUser!.id));
  });
});

describe('team messaging while unconfigured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        CHAT_URL: '',
        CHAT_PUBLIC_URL: '',
        CHAT_ADMIN_TOKEN: '',
        CHAT_GATEWAY_TOKEN: '',
        CHAT_DEFAULT_CHANNELS: '',
      },
    });
  });
  afterAll(() => t.close());

  it('says it is off, and every call to the server answers 500 chatNotConfigured', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    expect((await owner.agent.get('/api/v1/chat/config').expect(200)).body).toEqual({
      enabled: false,
      baseUrl: null,
    });
    const res = await owner.agent
      .post('/api/v1/chat/session')
      .send({ organizationId: org.id })
      .expect(500);
    expect(res.body).toMatchObject({ key: 'chatNotConfigured' });
    const sync = await owner.agent.post(`/api/v1/chat/sync-org/${org.id}`).expect(500);
    expect(sync.body).toMatchObject({ key: 'chatNotConfigured' });
    expect((await owner.agent.get('/api/v1/chat/token-health').expect(200)).body).toEqual({
      valid: false,
      reason: 'no_token',
    });
    // No gateway token configured: the gateway routes refuse every bearer.
    await t.http
      .get('/api/v1/chat/user-mapping/someone')
      .set('Authorization', 'Bearer ')
      .expect(401);
    await t.http
      .get('/api/v1/chat/user-mapping/someone')
      .set('Authorization', 'Bearer x')
      .expect(401);
  });
});
