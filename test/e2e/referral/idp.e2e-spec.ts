import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { CONTACTS_READONLY, FakeDrive, FakePerson } from '../../fakes/drive';
import { createTestApp, TestApp } from '../../support/app';
import { captureOutput } from '../../support/output';
import { ERROR_BODIES } from '../../support/errors';
import { testRedis } from '../../support/sessions';
import { loggedInAgent, LoggedInUser, logIn } from '../../support/users';

type Agent = LoggedInUser['agent'];

const person = (name: string | null, ...emails: string[]): FakePerson => ({
  ...(name === null ? {} : { names: [{ displayName: name, metadata: { primary: true } }] }),
  ...(emails.length ? { emailAddresses: emails.map((value) => ({ value })) } : {}),
});

const keyed = (error: string, key: string) => ({ error, key, message: expect.any(String) });
const badRequest = { error: 'Bad Request', message: expect.any(String) };

let mailbox = 0;
const accountEmail = () => `account-${++mailbox}-${Date.now()}@gmail.example.test`;

describe('identity provider contacts (spec 4.8, issue 25)', () => {
  let t: TestApp;
  let drive: FakeDrive;
  let output: ReturnType<typeof captureOutput>;
  let redis: Redis;

  beforeAll(async () => {
    // Every line the process writes, to check no token is ever logged.
    output = captureOutput();
    drive = await FakeDrive.start();
    t = await createTestApp({ env: drive.env() });
    redis = testRedis();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
    await drive.close();
    output.restore();
  });

  /** Where the user's contacts are kept between reads (5 minutes). */
  const cacheKey = (userId: string) => `${t.redisPrefix}idp-contacts:${userId}`;
  /** As if the user's kept contacts had expired. */
  const expireKept = async (userId: string) => void (await redis.del(cacheKey(userId)));
  const peopleCalls = () => drive.requestsTo('GET', /\/people\/me\/connections$/).length;

  const grantRows = (userId: string): Promise<{ grant_ciphertext: string }[]> =>
    t
      .get<DataSource>(DataSource)
      .query('SELECT grant_ciphertext FROM idp_contact_grant WHERE user_id = $1', [userId]);

  const authUrl = async (agent: Agent) =>
    new URL((await agent.get('/v1/idp/auth-url').expect(200)).body.url);

  /** The whole flow: consent URL, the browser at the provider, the code posted back. */
  async function connect(user: LoggedInUser, email: string, contacts?: FakePerson[]) {
    if (contacts) drive.addAccount(email, contacts);
    const url = await authUrl(user.agent);
    const { code, state } = await drive.authorize(url.toString(), email);
    return user.agent.post('/v1/idp/connect').send({ code, state });
  }

  it('builds the consent URL of the web-server flow, with a fresh state each time', async () => {
    const user = await loggedInAgent(t);
    const url = await authUrl(user.agent);
    expect(`${url.origin}${url.pathname}`).toBe(drive.env().IDP_DRIVE_AUTH_URL);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: drive.clientId,
      redirect_uri: drive.redirectUri,
      response_type: 'code',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    expect(q.scope.split(' ').sort()).toEqual([CONTACTS_READONLY, 'email', 'openid'].sort());
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = Object.fromEntries((await authUrl(user.agent)).searchParams);
    expect(again.state).not.toBe(q.state);
    expect(again.code_challenge).not.toBe(q.code_challenge);
  });

  it('connects: answers the account’s e-mail and stores the grant sealed', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    const res = await connect(user, email, []);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, email });
    const rows = await grantRows(user.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].grant_ciphertext).toMatch(/^v1\./);
    // No token the provider issued, nor the e-mail, is readable in the row.
    const issued = drive.issuedTokens();
    expect(issued.length).toBeGreaterThanOrEqual(2);
    for (const value of [...issued, email]) expect(rows[0].grant_ciphertext).not.toContain(value);
    // The code went to the token endpoint with the PKCE verifier and the client's secret.
    const [exchange] = drive
      .requestsTo('POST', /^\/oauth2\/token$/)
      .filter((r) => r.form.grant_type === 'authorization_code')
      .slice(-1);
    expect(exchange.form).toMatchObject({
      client_id: drive.clientId,
      client_secret: drive.clientSecret,
      redirect_uri: drive.redirectUri,
      code_verifier: expect.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/),
    });
  });

  it('refuses a state that is not the session’s pending one: none, wrong, reused, expired, another session’s', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    const post = (agent: Agent, body: object) => agent.post('/v1/idp/connect').send(body);

    // None pending.
    const none = await post(user.agent, { code: drive.issueCode(email), state: 'a-state' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual(badRequest);

    // Wrong: refused, and the pending one is used up by the attempt.
    const first = await drive.authorize((await authUrl(user.agent)).toString(), email);
    await post(user.agent, { code: first.code, state: `${first.state}x` }).expect(400);
    await post(user.agent, first).expect(400);

    // Reused: good once.
    const second = await drive.authorize((await authUrl(user.agent)).toString(), email);
    await post(user.agent, second).expect(200);
    const reused = await post(user.agent, second).expect(400);
    expect(reused.body.message).toMatch(/state/);

    // Expired: 10 minutes.
    const late = await drive.authorize((await authUrl(user.agent)).toString(), email);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 10 * 60 * 1000 + 1);
    try {
      await post(user.agent, late).expect(400);
    } finally {
      clock.mockRestore();
    }

    // Another session's state: another user's, and the same user's other login.
    const own = await drive.authorize((await authUrl(user.agent)).toString(), email);
    const other = await loggedInAgent(t);
    await post(other.agent, own).expect(400);
    const otherLogin = await logIn(t, user.email, user.password);
    await post(otherLogin, own).expect(400);
    // The attempts elsewhere did not use up this session's.
    await post(user.agent, own).expect(200);
    expect(await grantRows(other.user.id)).toEqual([]);
  });

  it('answers 400 when the provider refuses the code (invalid_grant), and stores nothing', async () => {
    const user = await loggedInAgent(t);
    const { state } = Object.fromEntries((await authUrl(user.agent)).searchParams);
    const res = await user.agent
      .post('/v1/idp/connect')
      .send({ code: '4/never-issued', state })
      .expect(400);
    expect(res.body).toEqual(badRequest);
    expect(res.body.message).toMatch(/invalid_grant/);

    // A code of another authorization request: its PKCE verifier is not this session's.
    const email = accountEmail();
    const elsewhere = await loggedInAgent(t);
    const stolen = await drive.authorize((await authUrl(elsewhere.agent)).toString(), email);
    const mine = Object.fromEntries((await authUrl(user.agent)).searchParams);
    await user.agent
      .post('/v1/idp/connect')
      .send({ code: stolen.code, state: mine.state })
      .expect(400);
    expect(await grantRows(user.user.id)).toEqual([]);
  });

  it('answers 400 when the contacts permission was not granted', async () => {
    const user = await loggedInAgent(t);
    const { state } = Object.fromEntries((await authUrl(user.agent)).searchParams);
    const code = drive.issueCode(accountEmail(), { scope: 'openid email' });
    const res = await user.agent.post('/v1/idp/connect').send({ code, state }).expect(400);
    expect(res.body.message).toMatch(/contacts/);
    expect(await grantRows(user.user.id)).toEqual([]);
  });

  it('answers 503 when the provider fails, after one retry', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    drive.failNext(2, { path: /^\/oauth2\/token$/, status: 502 });
    const failed = await connect(user, email, []);
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
    expect(await grantRows(user.user.id)).toEqual([]);

    // One failure is retried.
    drive.failNext(1, { path: /^\/oauth2\/token$/, status: 503 });
    expect((await connect(user, email)).status).toBe(200);

    // The People API failing too.
    drive.failNext(2, { path: /^\/people\// });
    const res = await user.agent.get('/v1/idp').expect(503);
    expect(res.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
    await user.agent.get('/v1/idp').expect(200);

    // The provider refusing the client itself (invalid_client): the server's problem.
    drive.failNext(1, { path: /^\/oauth2\/token$/, status: 401 });
    const refused = await connect(user, email);
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({ error: 'Internal Server Error' });
  });

  it('lists the contacts across pages: one per address, none without, de-duplicated, sorted', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    await connect(user, email, [
      person('Zoe Zed', 'zoe@example.test', 'Zoe.Work@Example.test'),
      person('Adam Alpha', 'adam@example.test'),
      person('No Mail'),
      person(null, 'anonymous@example.test'),
      person('Adam Again', 'ADAM@example.test'),
      person('Bea Beta', 'bea@example.test', 'not-an-address'),
    ]).then((r) => expect(r.status).toBe(200));
    drive.maxPageSize = 3;
    const before = drive.requestsTo('GET', /\/people\/me\/connections$/).length;
    try {
      const res = await user.agent.get('/v1/idp').expect(200);
      expect(res.body).toEqual([
        { name: 'Adam Alpha', email: 'adam@example.test' },
        { name: 'Bea Beta', email: 'bea@example.test' },
        { name: 'Zoe Zed', email: 'zoe.work@example.test' },
        { name: 'Zoe Zed', email: 'zoe@example.test' },
        { name: null, email: 'anonymous@example.test' },
      ]);
    } finally {
      drive.maxPageSize = 1000;
    }
    const calls = drive.requestsTo('GET', /\/people\/me\/connections$/).slice(before);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.query.personFields)).toEqual([
      'names,emailAddresses',
      'names,emailAddresses',
    ]);
    expect(calls[0].query.pageToken).toBeUndefined();
    expect(calls[1].query.pageToken).toBe('p3');
    expect(calls[0].path).toBe('/people/v1/people/me/connections');
  });

  it('refreshes an expired access token on the way and stores the new one', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    await connect(user, email, [person('Carl Gamma', 'carl@example.test')]);
    const [stored] = await grantRows(user.user.id);
    const refreshes = () =>
      drive
        .requestsTo('POST', /^\/oauth2\/token$/)
        .filter((r) => r.form.grant_type === 'refresh_token').length;
    const refreshed = refreshes();

    // Expired at the provider before the expiry it was given with: refused, refreshed, retried.
    drive.expireAccessTokens();
    const res = await user.agent.get('/v1/idp').expect(200);
    expect(res.body).toEqual([{ name: 'Carl Gamma', email: 'carl@example.test' }]);
    expect(refreshes()).toBe(refreshed + 1);
    const [after] = await grantRows(user.user.id);
    expect(after.grant_ciphertext).not.toBe(stored.grant_ciphertext);
    // The stored one is the new token: no refresh the next time the provider is asked.
    await expireKept(user.user.id);
    await user.agent.get('/v1/idp').expect(200);
    expect(refreshes()).toBe(refreshed + 1);

    // A token about to expire is refreshed before the call (no refused call first).
    drive.accessTokenLifetime = 30;
    try {
      const other = await loggedInAgent(t);
      await connect(other, accountEmail(), [person('Dana Delta', 'dana@example.test')]);
      const people = drive.requestsTo('GET', /\/people\/me\/connections$/).length;
      const count = refreshes();
      const listed = await other.agent.get('/v1/idp').expect(200);
      expect(listed.body).toEqual([{ name: 'Dana Delta', email: 'dana@example.test' }]);
      expect(refreshes()).toBe(count + 1);
      expect(drive.requestsTo('GET', /\/people\/me\/connections$/).length).toBe(people + 1);
    } finally {
      drive.accessTokenLifetime = 3599;
    }
  });

  it('forgets a grant the provider revoked: 404 idpNotConnected, the row gone', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    await connect(user, email, [person('Eve Epsilon', 'eve@example.test')]);
    await user.agent.get('/v1/idp').expect(200);
    drive.revokeGrantsOf(email);
    // Noticed when the provider is next asked (the kept answer expired).
    await expireKept(user.user.id);
    const res = await user.agent.get('/v1/idp').expect(404);
    expect(res.body).toEqual(keyed('Not Found', 'idpNotConnected'));
    expect(await grantRows(user.user.id)).toEqual([]);
    await user.agent.get('/v1/idp').expect(404);
    // Connecting again works.
    expect((await connect(user, email)).status).toBe(200);
    await user.agent.get('/v1/idp').expect(200);
  });

  it('answers 404 idpNotConnected to a user who connected nothing', async () => {
    const user = await loggedInAgent(t);
    const res = await user.agent.get('/v1/idp').expect(404);
    expect(res.body).toEqual(keyed('Not Found', 'idpNotConnected'));
  });

  it('answers 401 without a session on every route', async () => {
    for (const res of [
      await t.http.get('/v1/idp/auth-url'),
      await t.http.post('/v1/idp/connect').send({ code: 'c', state: 's' }),
      await t.http.get('/v1/idp'),
      await t.http.delete('/v1/idp'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
    }
  });

  it('answers 400 to bad bodies', async () => {
    const user = await loggedInAgent(t);
    const post = (body: object) => user.agent.post('/v1/idp/connect').send(body);
    const missing = await post({ code: 'c' }).expect(400);
    expect(missing.body).toEqual(keyed('Bad Request', 'invalidFields'));
    expect(missing.body.message).toMatch(/state/);
    await post({}).expect(400);
    await post({ code: '', state: 's' }).expect(400);
    await post({ code: 'c', state: '' }).expect(400);
    await post({ code: 5, state: 's' }).expect(400);
    await post({ code: 'c', state: ['s'] }).expect(400);
    await post({ code: 'c'.repeat(2049), state: 's' }).expect(400);
    await post({ code: 'c', state: 's'.repeat(257) }).expect(400);
  });

  it('shows each user their own contacts only', async () => {
    const ann = await loggedInAgent(t);
    const ben = await loggedInAgent(t);
    const stranger = await loggedInAgent(t);
    await connect(ann, accountEmail(), [person('Ann’s Friend', 'friend.of.ann@example.test')]);
    await connect(ben, accountEmail(), [person('Ben’s Friend', 'friend.of.ben@example.test')]);
    expect((await ann.agent.get('/v1/idp').expect(200)).body).toEqual([
      { name: 'Ann’s Friend', email: 'friend.of.ann@example.test' },
    ]);
    expect((await ben.agent.get('/v1/idp').expect(200)).body).toEqual([
      { name: 'Ben’s Friend', email: 'friend.of.ben@example.test' },
    ]);
    await stranger.agent.get('/v1/idp').expect(404);
    // Ann's sealed row copied to the stranger opens for no one: it is forgotten.
    const [row] = await grantRows(ann.user.id);
    await t
      .get<DataSource>(DataSource)
      .query('INSERT INTO idp_contact_grant (user_id, grant_ciphertext) VALUES ($1, $2)', [
        stranger.user.id,
        row.grant_ciphertext,
      ]);
    const copied = await stranger.agent.get('/v1/idp').expect(404);
    expect(copied.body).toEqual(keyed('Not Found', 'idpNotConnected'));
    expect(await grantRows(stranger.user.id)).toEqual([]);
    expect(await grantRows(ann.user.id)).toEqual([row]);
  });

  it('reconnecting replaces the grant, keeping the refresh token of the same account', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    await connect(user, email, [person('Finn Phi', 'finn@example.test')]);
    const reconnect = async (account: string) => {
      const { state } = Object.fromEntries((await authUrl(user.agent)).searchParams);
      const code = drive.issueCode(account, { offline: false });
      return user.agent.post('/v1/idp/connect').send({ code, state }).expect(200);
    };
    // The same account without a refresh token this time: the first one still refreshes.
    await reconnect(email);
    drive.expireAccessTokens();
    expect((await user.agent.get('/v1/idp').expect(200)).body).toEqual([
      { name: 'Finn Phi', email: 'finn@example.test' },
    ]);
    // Another account: its grant alone, and without a refresh token an expired one is over.
    const other = accountEmail();
    drive.addAccount(other, [person('Gil Chi', 'gil@example.test')]);
    expect((await reconnect(other)).body).toEqual({ success: true, email: other });
    expect((await grantRows(user.user.id)).length).toBe(1);
    expect((await user.agent.get('/v1/idp').expect(200)).body).toEqual([
      { name: 'Gil Chi', email: 'gil@example.test' },
    ]);
    drive.expireAccessTokens();
    await expireKept(user.user.id);
    await user.agent.get('/v1/idp').expect(404);
    expect(await grantRows(user.user.id)).toEqual([]);
  });

  it('disconnects: revokes the grant at the provider and forgets it', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    await connect(user, email, [person('Hal Psi', 'hal@example.test')]);
    const revokes = drive.requestsTo('POST', /^\/oauth2\/revoke$/).length;
    expect((await user.agent.delete('/v1/idp').expect(200)).body).toEqual({ success: true });
    const revoked = drive.requestsTo('POST', /^\/oauth2\/revoke$/).slice(revokes);
    expect(revoked).toHaveLength(1);
    expect(drive.isLive(revoked[0].query.token)).toBe(false);
    expect(revoked[0].query.token).toMatch(/^1\/\/refresh/);
    expect(await grantRows(user.user.id)).toEqual([]);
    await user.agent.get('/v1/idp').expect(404);
    // Nothing connected: nothing to do.
    expect((await user.agent.delete('/v1/idp').expect(200)).body).toEqual({ success: true });

    // The provider failing to revoke does not keep the grant.
    await connect(user, email);
    drive.failNext(2, { path: /^\/oauth2\/revoke$/ });
    await user.agent.delete('/v1/idp').expect(200);
    expect(await grantRows(user.user.id)).toEqual([]);
  });

  it('keeps each user’s contacts 5 minutes, sealed, and forgets them on connect and disconnect', async () => {
    const user = await loggedInAgent(t);
    const email = accountEmail();
    await connect(user, email, [person('Ida Iota', 'ida@example.test')]);
    const before = peopleCalls();
    const first = await user.agent.get('/v1/idp').expect(200);
    expect(first.body).toEqual([{ name: 'Ida Iota', email: 'ida@example.test' }]);
    // A change at the provider shows only once the kept answer is gone.
    drive.addAccount(email, [person('Jon Kappa', 'jon@example.test')]);
    expect((await user.agent.get('/v1/idp').expect(200)).body).toEqual(first.body);
    expect(peopleCalls()).toBe(before + 1);
    const ttl = await redis.pttl(cacheKey(user.user.id));
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    // Kept sealed: no contact's address is readable in Redis.
    const kept = await redis.get(cacheKey(user.user.id));
    expect(kept).toMatch(/^v1\./);
    expect(kept).not.toContain('ida@example.test');
    // Another user is never given it, even when their entry is this one's copied over.
    const other = await loggedInAgent(t);
    await connect(other, accountEmail(), [person('Lea Lambda', 'lea@example.test')]);
    await redis.set(cacheKey(other.user.id), kept!, 'PX', 60_000);
    expect((await other.agent.get('/v1/idp').expect(200)).body).toEqual([
      { name: 'Lea Lambda', email: 'lea@example.test' },
    ]);

    // Connecting again forgets them.
    expect((await connect(user, email)).status).toBe(200);
    expect((await user.agent.get('/v1/idp').expect(200)).body).toEqual([
      { name: 'Jon Kappa', email: 'jon@example.test' },
    ]);
    expect(peopleCalls()).toBe(before + 3);
    // So does disconnecting: nothing is answered from them afterwards.
    await user.agent.delete('/v1/idp').expect(200);
    expect(await redis.exists(cacheKey(user.user.id))).toBe(0);
    await user.agent.get('/v1/idp').expect(404);
  });

  it('limits each user to 30 contact lists a minute (429 with Retry-After and X-RateLimit-*)', async () => {
    const user = await loggedInAgent(t);
    await connect(user, accountEmail(), [person('Max Mu', 'max@example.test')]);
    for (let i = 0; i < 30; i++) await user.agent.get('/v1/idp').expect(200);
    const refused = await user.agent.get('/v1/idp').expect(429);
    expect(refused.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-limit']).toBe('30');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    // Another user's lists are theirs.
    const other = await loggedInAgent(t);
    await connect(other, accountEmail(), []);
    await other.agent.get('/v1/idp').expect(200);
  });

  it('logged none of the tokens the provider issued, nor a code', () => {
    const log = output.text();
    const codes = drive.requestsTo('POST', /^\/oauth2\/token$/).map((r) => r.form.code);
    const secrets = [...drive.issuedTokens(), ...codes.filter(Boolean)];
    expect(secrets.length).toBeGreaterThan(20);
    expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
  });
});

describe('identity provider contacts without IDP_DRIVE_CLIENT_ID', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { IDP_DRIVE_CLIENT_ID: '' } });
  });
  afterAll(() => t.close());

  it('answers 500 driveNotConfigured on every route, and 401 first without a session', async () => {
    const user = await loggedInAgent(t);
    for (const res of [
      await user.agent.get('/v1/idp/auth-url'),
      await user.agent.post('/v1/idp/connect').send({ code: 'c', state: 's' }),
      await user.agent.post('/v1/idp/connect').send({}),
      await user.agent.get('/v1/idp'),
      await user.agent.delete('/v1/idp'),
    ]) {
      expect(res.status).toBe(500);
      expect(res.body).toEqual(keyed('Internal Server Error', 'driveNotConfigured'));
    }
    await t.http.get('/v1/idp').expect(401);
    await t.http.post('/v1/idp/connect').send({}).expect(401);
  });
});

describe('identity provider contacts configured in part', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The client id alone: start-up no longer refuses it; each feature names what it lacks.
    t = await createTestApp({
      env: {
        IDP_DRIVE_CLIENT_ID: 'client-only.apps.example.test',
        IDP_DRIVE_CLIENT_SECRET: '',
        IDP_CONTACTS_REDIRECT_URI: '',
      },
    });
  });
  afterAll(() => t.close());

  it('starts, and the contacts answer 500 naming the first missing variable', async () => {
    const user = await loggedInAgent(t);
    const res = await user.agent.get('/v1/idp/auth-url').expect(500);
    expect(res.body).toEqual(keyed('Internal Server Error', 'driveNotConfigured'));
    expect(res.body.message).toContain('IDP_DRIVE_CLIENT_SECRET');
  });
});

describe('identity provider contacts without their redirect URI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        IDP_DRIVE_CLIENT_ID: 'client.apps.example.test',
        IDP_DRIVE_CLIENT_SECRET: 'secret',
        IDP_CONTACTS_REDIRECT_URI: '',
      },
    });
  });
  afterAll(() => t.close());

  it('answers 500 naming IDP_CONTACTS_REDIRECT_URI', async () => {
    const user = await loggedInAgent(t);
    const res = await user.agent.get('/v1/idp').expect(500);
    expect(res.body).toEqual(keyed('Internal Server Error', 'driveNotConfigured'));
    expect(res.body.message).toContain('IDP_CONTACTS_REDIRECT_URI');
  });
});
