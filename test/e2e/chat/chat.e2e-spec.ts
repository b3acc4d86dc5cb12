import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { RedisConnections } from '../../../src/redis';
import { FakeChat } from '../../fakes/chat';
import { createTestApp, TestApp } from '../../support/app';
import { captureOutput } from '../../support/output';
import { eventually, sleep } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent, randomIp } from '../../support/users';

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
    const teamName = first.body.teamName as string;
    expect(first.body).toEqual({
      token: expect.any(String),
      baseUrl: 'https://chat.example.test',
      teamName: expect.stringMatching(/^org-[0-9a-f]{32}$/),
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
    // The default channels, the one the server does not make included, and the private one of
    // the agent's replies (its Owner in it); the user is in the team.
    const channels = [...fake.channels.values()].filter((c) => c.team_id === teams[0].id);
    expect(channels.map((c) => [c.name, c.type]).sort()).toEqual([
      ['announcements', 'O'],
      [expect.stringMatching(/^cap-table-[0-9a-f]{32}$/), 'P'],
      ['off-topic', 'O'],
      ['town-square', 'O'],
    ]);
    const privateChannel = channels.find((c) => c.type === 'P')!;
    expect(fake.channelMembersOf(privateChannel.id)).toEqual(
      [fake.admin.id, first.body.chatUserId].sort(),
    );
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
    const { chatUserId, teamName } = (await session(owner.agent, org.id).expect(200)).body;
    const team = [...fake.teams.values()].find((x) => x.name === teamName)!;
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

  it('throttles failed gateway tokens per client address: 429, while other addresses go on (issue 35)', async () => {
    const ip = randomIp();
    const from = (address: string, token?: string) => {
      const req = t.http.get('/api/v1/chat/user-mapping/someone').set('X-Forwarded-For', address);
      return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
    };
    for (let i = 0; i < 5; i++) await from(ip, 'wrong').expect(401);
    for (let i = 0; i < 5; i++) await from(ip).expect(401);
    const limited = await from(ip, 'wrong').expect(429);
    expect(limited.body).toMatchObject({ error: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-limit']).toBe('10');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    // The right token from there is refused too (it would tell a guess that hit).
    await from(ip, GATEWAY_TOKEN).expect(429);
    await t.http
      .get('/api/v1/chat/team-mapping/someteam')
      .set('X-Forwarded-For', ip)
      .set('Authorization', `Bearer ${GATEWAY_TOKEN}`)
      .expect(429);
    expect((await from(randomIp(), GATEWAY_TOKEN).expect(200)).body).toEqual({ userId: null });
  });

  it('syncs the team: members in, former members out, unmapped chat users untouched (250, paged)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Big Team');
    const { teamName } = (await session(owner.agent, org.id).expect(200)).body;
    const team = [...fake.teams.values()].find((x) => x.name === teamName)!;
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

  it('never adopts a team someone else made under the organization’s name (issue 35)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    // The attacker guessed the name the service used to give the team, and made it first.
    const attacker = fake.seedUser({
      email: `attacker-${randomUUID()}@evil.example.test`,
      username: `attacker${randomUUID().slice(0, 8)}`,
    });
    const planted = fake.seedTeam({ name: `org-${org.id.replace(/-/g, '')}` }, attacker);
    const { teamName } = (await session(owner.agent, org.id).expect(200)).body;
    expect(teamName).not.toBe(planted.name);
    const team = [...fake.teams.values()].find((x) => x.name === teamName)!;
    expect(team.type).toBe('I');
    expect(fake.members(planted.id).map((m) => m.user_id)).toEqual([attacker.id]);
    expect(fake.members(team.id).map((m) => m.user_id)).not.toContain(attacker.id);
    const gateway = (path: string) =>
      t.http.get(`/api/v1/chat/${path}`).set('Authorization', `Bearer ${GATEWAY_TOKEN}`);
    await gateway(`team-mapping/${planted.id}`).expect(404);
    expect((await gateway(`team-mapping/${team.id}`).expect(200)).body).toEqual({
      organizationId: org.id,
    });
    // Its name is no function of the organization: another one's cannot be guessed from it.
    const other = await createOrg(owner.agent);
    const second = (await session(owner.agent, other.id).expect(200)).body.teamName as string;
    expect(second).not.toContain(other.id.replace(/-/g, '').slice(0, 12));
  });

  it('never adopts a system admin’s chat account by its e-mail (issue 35)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const admin = fake.seedUser({
      email: owner.email,
      username: `sysadmin${randomUUID().slice(0, 8)}`,
      roles: 'system_user system_admin',
    });
    const res = await session(owner.agent, org.id).expect(500);
    expect(res.body).toMatchObject({ key: 'chatProvisioningFailed' });
    expect(fake.requestsTo('POST', new RegExp(`^/users/${admin.id}/tokens$`))).toHaveLength(0);
    const links = await t
      .get<DataSource>(DataSource)
      .query(`SELECT chat_user_id FROM chat_user WHERE user_id = $1`, [owner.user.id]);
    expect(links).toEqual([]);
    expect((await owner.agent.get('/api/v1/chat/token-health').expect(200)).body).toEqual({
      valid: false,
      reason: 'no_token',
    });
    // A sync leaves that account out (and the other members in).
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    expect((await owner.agent.post(`/api/v1/chat/sync-org/${org.id}`).expect(200)).body).toEqual({
      synced: 1,
    });
    const team = [...fake.teams.values()].find((x) =>
      fake.members(x.id).some((m) => fake.users.get(m.user_id)?.email === viewer.email),
    )!;
    expect(fake.members(team.id).map((m) => m.user_id)).not.toContain(admin.id);
  });

  /** What the app holds in this database while a request to the chat server waits (issue 35). */
  async function heldWhileWaiting(path: RegExp, start: () => Promise<unknown>) {
    const db = t.get<DataSource>(DataSource);
    const count = async (sql: string) => (await db.query(sql))[0].count as number;
    const held = fake.hold(path);
    // A supertest request goes out when it is awaited.
    const done = Promise.resolve().then(start);
    await held.arrived;
    await sleep(400);
    const seen = {
      // Connections idle inside a transaction for a while: waiting on the HTTP call.
      idleInTransaction: await count(
        `SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'
            AND state_change < now() - interval '250 milliseconds'`,
      ),
      advisoryLocks: await count(
        `SELECT count(*)::int AS count FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
      ),
    };
    held.release();
    await done;
    return seen;
  }
  const NOTHING_HELD = { idleInTransaction: 0, advisoryLocks: 0 };

  it('holds no database transaction or advisory lock while a session waits for the server (issue 35)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    // The user's lookup by e-mail, then (the user known) the team's creation.
    expect(
      await heldWhileWaiting(/^\/users\/email\//, () => session(owner.agent, org.id).expect(200)),
    ).toEqual(NOTHING_HELD);
    const other = await createOrg(owner.agent);
    expect(
      await heldWhileWaiting(/^\/teams$/, () => session(owner.agent, other.id).expect(200)),
    ).toEqual(NOTHING_HELD);
  });

  it('holds no database transaction while a member event’s consumer waits for the server (issue 35)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await session(owner.agent, org.id).expect(200);
    // Accepting the invitation is a member.updated: the consumer adds the member to the team.
    expect(
      await heldWhileWaiting(/^\/teams\/[^/]+\/members$/, () =>
        memberAgent(t, owner.agent, org.id, 'Viewer'),
      ),
    ).toEqual(NOTHING_HELD);
  });

  it('makes one team and one private channel for concurrent sessions, even past a lapsed lock (issue 35)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const teamsMade = () => fake.requestsTo('POST', /^\/teams$/).length;
    const before = teamsMade();
    const held = fake.hold(/^\/teams$/);
    const first = Promise.resolve().then(() => session(owner.agent, org.id).expect(200));
    await held.arrived;
    // The first holder stalls past its lease (the lock is gone): the second goes ahead.
    const redis = new Redis(t.get<RedisConnections>(RedisConnections).url);
    expect(await redis.del(`${t.redisPrefix}chat:lock:organization:${org.id}`)).toBe(1);
    redis.disconnect();
    const second = await session(viewer.agent, org.id).expect(200);
    held.release();
    // The first is told the name is taken, and uses the team of the name the service stored.
    expect((await first).body.teamName).toBe(second.body.teamName);
    expect(teamsMade() - before).toBe(2);
    const teams = [...fake.teams.values()].filter((x) => x.name === second.body.teamName);
    expect(teams).toHaveLength(1);
    const privateChannels = [...fake.channels.values()].filter(
      (c) => c.team_id === teams[0].id && c.type === 'P',
    );
    expect(privateChannels).toHaveLength(1);
  });

  it('brings the team in step through the queue: an accepted invitation joins, a removal leaves', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const { teamName } = (await session(owner.agent, org.id).expect(200)).body;
    const team = [...fake.teams.values()].find((x) => x.name === teamName)!;
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
