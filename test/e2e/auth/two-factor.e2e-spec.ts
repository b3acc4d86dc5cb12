import { authenticator } from 'otplib';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { sessionIdOf, sessionSetCookie } from '../../support/sessions';
import { LoggedInUser, loggedInAgent } from '../../support/users';
import { ERROR_BODIES } from '../../support/errors';

const keyed = (key: string) => ({ error: 'Bad Request', key });
/** The token of the step `offset` steps from now (otplib). */
const tokenAt = (secret: string, offset = 0) =>
  authenticator.clone({ epoch: Date.now() + offset * 30_000 }).generate(secret);
const otherToken = (token: string) => String((Number(token) + 1) % 1_000_000).padStart(6, '0');

describe('two-factor authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A logged-in user with 2FA enabled by `setupToken`, the token of the then current step. */
  async function withTwoFactor(): Promise<LoggedInUser & { secret: string; setupToken: string }> {
    const { agent, ...rest } = await loggedInAgent(t);
    const setup = await agent.get('/v1/user/2fa').expect(200);
    const setupToken = tokenAt(setup.body.secret);
    await agent.post('/v1/user/2fa').send({ token: setupToken }).expect(200);
    return { ...rest, agent, secret: setup.body.secret, setupToken };
  }

  describe('GET /v1/user/2fa', () => {
    it('gives a secret, its otpauth URL and a PNG QR code', async () => {
      const { agent, email } = await loggedInAgent(t);
      const res = await agent.get('/v1/user/2fa').expect(200);
      expect(res.body).toEqual({
        secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
        otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\/Ledgerline:/),
        qrCode: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/),
      });
      expect(res.body.otpauthUrl).toContain(`secret=${res.body.secret}`);
      expect(res.body.otpauthUrl).toContain(encodeURIComponent(email));
      const png = Buffer.from(res.body.qrCode.split(',')[1], 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // Not enabled until confirmed.
      expect((await agent.get('/v1/user/session')).body.user.twoFactorEnabled).toBe(false);
    });

    it('answers 401 without a session', async () => {
      expect((await t.http.get('/v1/user/2fa').expect(401)).body).toEqual(ERROR_BODIES[401]);
    });
  });

  describe('POST /v1/user/2fa', () => {
    it('enables 2FA with a token of the pending secret, which is stored encrypted', async () => {
      const { agent, user } = await loggedInAgent(t);
      const { secret } = (await agent.get('/v1/user/2fa').expect(200)).body;
      const res = await agent
        .post('/v1/user/2fa')
        .send({ token: tokenAt(secret) })
        .expect(200);
      expect(res.body).toEqual({ user: { ...user, twoFactorEnabled: true } });
      const [row] = await t
        .get<DataSource>(DataSource)
        .query('SELECT two_factor_secret FROM user_account WHERE id = $1', [user.id]);
      expect(row.two_factor_secret).toMatch(/^v1\./);
      expect(row.two_factor_secret).not.toContain(secret);
      // A second set-up is refused while 2FA is on.
      await agent.get('/v1/user/2fa').expect(409);
    });

    it('refuses a wrong token: invalidTwoFactorToken', async () => {
      const { agent } = await loggedInAgent(t);
      const { secret } = (await agent.get('/v1/user/2fa').expect(200)).body;
      const res = await agent
        .post('/v1/user/2fa')
        .send({ token: otherToken(tokenAt(secret)) })
        .expect(400);
      expect(res.body).toEqual(keyed('invalidTwoFactorToken'));
      await agent
        .post('/v1/user/2fa')
        .send({ token: tokenAt(secret, 3) })
        .expect(400);
    });

    it('refuses a token when no secret was asked for', async () => {
      const { agent } = await loggedInAgent(t);
      const res = await agent.post('/v1/user/2fa').send({ token: '123456' }).expect(400);
      expect(res.body).toEqual(keyed('invalidTwoFactorToken'));
    });

    it('refuses a malformed body with {error, message}', async () => {
      const { agent } = await loggedInAgent(t);
      const res = await agent.post('/v1/user/2fa').send({ token: 123456 }).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
    });

    it('answers 401 without a session', async () => {
      await t.http.post('/v1/user/2fa').send({ token: '123456' }).expect(401);
    });
  });

  describe('login with 2FA and POST /v1/user/2fa/verify', () => {
    it('answers {twoFactorRequired: true} with a session that is not yet authenticated', async () => {
      const { email, password, user, secret } = await withTwoFactor();
      const agent = t.agent();
      const login = await agent.post('/v1/user/login').send({ email, password }).expect(200);
      expect(login.body).toEqual({ twoFactorRequired: true });
      const pendingId = sessionIdOf(sessionSetCookie(login));
      await agent.get('/v1/user/session').expect(401);
      await agent.get('/v1/user/state').expect(401);

      const res = await agent
        .post('/v1/user/2fa/verify')
        .send({ token: tokenAt(secret, 1) })
        .expect(200);
      expect(res.body).toEqual({ user: { ...user, twoFactorEnabled: true } });
      const finalId = sessionIdOf(sessionSetCookie(res));
      expect(finalId).not.toBe(pendingId);
      await agent.get('/v1/user/session').expect(200);
    });

    it('refuses a wrong token: invalidTwoFactorToken, and the session stays unauthenticated', async () => {
      const { email, password, secret } = await withTwoFactor();
      const agent = t.agent();
      await agent.post('/v1/user/login').send({ email, password }).expect(200);
      const res = await agent
        .post('/v1/user/2fa/verify')
        .send({ token: otherToken(tokenAt(secret, 1)) })
        .expect(400);
      expect(res.body).toEqual(keyed('invalidTwoFactorToken'));
      await agent.get('/v1/user/session').expect(401);
    });

    it('refuses a token already used (replay), including the set-up token', async () => {
      const { email, password, secret, setupToken } = await withTwoFactor();
      const first = t.agent();
      await first.post('/v1/user/login').send({ email, password }).expect(200);
      // The set-up token is spent (sent as it was: the clock may have moved on a step since).
      expect((await first.post('/v1/user/2fa/verify').send({ token: setupToken })).body).toEqual(
        keyed('invalidTwoFactorToken'),
      );
      const token = tokenAt(secret, 1);
      await first.post('/v1/user/2fa/verify').send({ token }).expect(200);

      const second = t.agent();
      await second.post('/v1/user/login').send({ email, password }).expect(200);
      const replay = await second.post('/v1/user/2fa/verify').send({ token }).expect(400);
      expect(replay.body).toEqual(keyed('invalidTwoFactorToken'));
      await second.get('/v1/user/session').expect(401);
    });

    it('answers 401 when no login waits for a second factor and there is no session', async () => {
      const res = await t.http.post('/v1/user/2fa/verify').send({ token: '123456' }).expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
      // A session of a login still waiting for its second factor is not a logged-in session.
      const { email, password } = await withTwoFactor();
      const agent = t.agent();
      await agent.post('/v1/user/login').send({ email, password }).expect(200);
      await t
        .get<DataSource>(DataSource)
        .query(`UPDATE user_account SET two_factor_enabled = false WHERE email = $1`, [email]);
      await agent.post('/v1/user/2fa/verify').send({ token: '123456' }).expect(401);
    });

    it('locks after 5 wrong codes: even the right one is then 429 with Retry-After', async () => {
      const { email, password, secret } = await withTwoFactor();
      const agent = t.agent();
      await agent.post('/v1/user/login').send({ email, password }).expect(200);
      const wrong = otherToken(tokenAt(secret, 1));
      for (let i = 0; i < 5; i++) {
        await agent.post('/v1/user/2fa/verify').send({ token: wrong }).expect(400);
      }
      const locked = await agent
        .post('/v1/user/2fa/verify')
        .send({ token: tokenAt(secret, 1) })
        .expect(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(locked.headers).toMatchObject({
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': expect.stringMatching(/^\d{10}$/),
      });
    });

    it('is refused cross-site', async () => {
      await t.http
        .post('/v1/user/2fa/verify')
        .set('Sec-Fetch-Site', 'cross-site')
        .send({ token: '123456' })
        .expect(403);
    });
  });
  describe('POST /v1/user/2fa/verify with a logged-in session (no login waiting)', () => {
    const verify = (agent: LoggedInUser['agent'], token: string) =>
      agent.post('/v1/user/2fa/verify').send({ token });
    const twoFactorEnabled = async (userId: string) => {
      const [row] = await t
        .get<DataSource>(DataSource)
        .query('SELECT two_factor_enabled FROM user_account WHERE id = $1', [userId]);
      return row.two_factor_enabled as boolean;
    };

    it('checks a token of the secret from GET /v1/user/2fa without enabling 2FA', async () => {
      const { agent, user } = await loggedInAgent(t);
      const { secret } = (await agent.get('/v1/user/2fa').expect(200)).body;
      const res = await verify(agent, tokenAt(secret)).expect(200);
      expect(res.body).toEqual({ valid: true });
      // Not enabled: neither in the account nor for the session's user.
      expect(await twoFactorEnabled(user.id)).toBe(false);
      expect((await agent.get('/v1/user/session').expect(200)).body.user.twoFactorEnabled).toBe(
        false,
      );
      // POST /v1/user/2fa still enables it with the same pending secret.
      await agent
        .post('/v1/user/2fa')
        .send({ token: tokenAt(secret) })
        .expect(200);
      expect(await twoFactorEnabled(user.id)).toBe(true);
    });

    it('refuses a wrong token of the pending secret: invalidTwoFactorToken', async () => {
      const { agent, user } = await loggedInAgent(t);
      const { secret } = (await agent.get('/v1/user/2fa').expect(200)).body;
      const res = await verify(agent, otherToken(tokenAt(secret))).expect(400);
      expect(res.body).toEqual(keyed('invalidTwoFactorToken'));
      await verify(agent, tokenAt(secret, 3)).expect(400);
      expect(await twoFactorEnabled(user.id)).toBe(false);
    });

    it('refuses any token when no secret was asked for: invalidTwoFactorToken', async () => {
      const { agent } = await loggedInAgent(t);
      const res = await verify(agent, '123456').expect(400);
      expect(res.body).toEqual(keyed('invalidTwoFactorToken'));
    });

    it('with 2FA on, checks against the enabled secret; a step is accepted once', async () => {
      const { agent, secret } = await withTwoFactor();
      // The set-up token (current step) was spent by POST /v1/user/2fa.
      expect((await verify(agent, tokenAt(secret)).expect(400)).body).toEqual(
        keyed('invalidTwoFactorToken'),
      );
      const token = tokenAt(secret, 1);
      expect((await verify(agent, token).expect(200)).body).toEqual({ valid: true });
      expect((await verify(agent, token).expect(400)).body).toEqual(keyed('invalidTwoFactorToken'));
      expect((await verify(agent, otherToken(token)).expect(400)).body).toEqual(
        keyed('invalidTwoFactorToken'),
      );
      // The session stays the same logged-in session.
      await agent.get('/v1/user/session').expect(200);
    });

    it('counts wrong tokens toward the 2FA lock: 429 for the right token and for a login', async () => {
      const { agent, email, password, secret } = await withTwoFactor();
      const wrong = otherToken(tokenAt(secret, 1));
      for (let i = 0; i < 5; i++) await verify(agent, wrong).expect(400);
      const locked = await verify(agent, tokenAt(secret, 1)).expect(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // The same per-account lock refuses the password step of a new login.
      const login = await t.http.post('/v1/user/login').send({ email, password }).expect(429);
      expect(login.headers['retry-after']).toBeDefined();
    });

    it('counts wrong tokens of a pending set-up secret toward the lock too', async () => {
      const { agent } = await loggedInAgent(t);
      const { secret } = (await agent.get('/v1/user/2fa').expect(200)).body;
      for (let i = 0; i < 5; i++) await verify(agent, otherToken(tokenAt(secret))).expect(400);
      await verify(agent, tokenAt(secret)).expect(429);
    });
  });
});
