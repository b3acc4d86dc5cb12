import type Redis from 'ioredis';
import { createTestApp, TestApp } from '../../support/app';
import { sessionIdOf, sessionSetCookie, testRedis } from '../../support/sessions';
import { loggedInAgent, registerUser } from '../../support/users';
import { ERROR_BODIES, MESSAGE_BODY } from '../../support/errors';

const keyed = (key: string) => ({ error: 'Bad Request', key });

describe('POST /v1/user/login, GET /v1/user/session, POST /v1/user/logout', () => {
  let t: TestApp;
  let redis: Redis;
  const sessionKey = (id: string) => `${t.redisPrefix}sess:${id}`;

  beforeAll(async () => {
    t = await createTestApp({
      env: { API_SESSION_MAX_AGE: '120000', API_PUBLIC_URL: 'https://api.test' },
    });
    redis = testRedis();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });

  describe('login', () => {
    it('answers {user} and sets an httpOnly, SameSite=Lax session cookie stored in Redis', async () => {
      const { email, password, user } = await registerUser(t);
      const res = await t.http
        .post('/v1/user/login')
        .send({ email: ` ${email.toUpperCase()} `, password })
        .expect(200);
      expect(res.body).toEqual({ user });
      const cookie = sessionSetCookie(res)!;
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).not.toMatch(/; Secure/);
      const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]);
      expect(expires - Date.now()).toBeGreaterThan(100_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(121_000);
      const stored = JSON.parse((await redis.get(sessionKey(sessionIdOf(cookie))))!);
      expect(stored.userId).toBe(user.id);
      expect(JSON.stringify(stored)).not.toContain(password);
    });

    it('gives a new session id on every login and destroys the old one', async () => {
      const { agent, email, password } = await loggedInAgent(t);
      const before = sessionIdOf(sessionSetCookie(await agent.get('/v1/user/session').expect(200)));
      expect(await redis.exists(sessionKey(before))).toBe(1);
      const again = await agent.post('/v1/user/login').send({ email, password }).expect(200);
      const after = sessionIdOf(sessionSetCookie(again));
      expect(after).not.toBe(before);
      expect(await redis.exists(sessionKey(before))).toBe(0);
      expect(await redis.exists(sessionKey(after))).toBe(1);
      await agent.get('/v1/user/session').expect(200);
    });

    it('answers an unknown address and a wrong password with the same invalidCredentials', async () => {
      const { email } = await registerUser(t);
      const wrong = await t.http
        .post('/v1/user/login')
        .send({ email, password: 'not the password' });
      const unknown = await t.http
        .post('/v1/user/login')
        .send({ email: 'nobody-here@example.test', password: 'not the password' });
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(wrong.body).toEqual(keyed('invalidCredentials'));
      expect(unknown.body).toEqual(wrong.body);
      expect(sessionSetCookie(wrong)).toBeUndefined();
    });

    it('refuses an unverified address: emailNotVerified, without a session', async () => {
      const { email, password } = await registerUser(t, { unverified: true });
      const res = await t.http.post('/v1/user/login').send({ email, password }).expect(400);
      expect(res.body).toEqual(keyed('emailNotVerified'));
      expect(sessionSetCookie(res)).toBeUndefined();
    });

    it('refuses a malformed body with {error, message}; a missing field with invalidFields', async () => {
      const res = await t.http.post('/v1/user/login').send({ email: 'a@b.test' }).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'invalidFields',
        message: 'password is required',
      });
      const wrongType = await t.http
        .post('/v1/user/login')
        .send({ email: 'a@b.test', password: 42 })
        .expect(400);
      expect(wrongType.body).toEqual({
        error: 'Bad Request',
        message: 'password must be a string',
      });
    });

    it('refuses cross-site requests with 403 and accepts the frontend and API origins', async () => {
      const { email, password } = await registerUser(t);
      const cross = await t.http
        .post('/v1/user/login')
        .set('Sec-Fetch-Site', 'cross-site')
        .send({ email, password })
        .expect(403);
      expect(cross.body).toEqual(MESSAGE_BODY);
      await t.http
        .post('/v1/user/login')
        .set('Origin', 'https://evil.test')
        .send({ email, password })
        .expect(403);
      await t.http
        .post('/v1/user/login')
        .set('Origin', 'null')
        .send({ email, password })
        .expect(403);
      await t.http
        .post('/v1/user/login')
        .set('Origin', 'http://frontend.test')
        .send({ email, password })
        .expect(200);
      await t.http
        .post('/v1/user/login')
        .set('Origin', 'https://api.test')
        .send({ email, password })
        .expect(200);
      await t.http
        .post('/v1/user/login')
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ email, password })
        .expect(200);
    });
  });

  describe('GET /v1/user/session', () => {
    it('answers {user} for a logged-in session', async () => {
      const { agent, user } = await loggedInAgent(t);
      const res = await agent.get('/v1/user/session').expect(200);
      expect(res.body).toEqual({ user });
    });

    it('answers 401 {error} without a session, and with a forged cookie', async () => {
      const res = await t.http.get('/v1/user/session').expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
      await t.http
        .get('/v1/user/session')
        .set('Cookie', 'connect.sid=s%3Aforged.signature')
        .expect(401);
    });

    it('extends the session on every request (rolling): new cookie expiry and Redis TTL', async () => {
      const { agent } = await loggedInAgent(t);
      const first = await agent.get('/v1/user/session').expect(200);
      const id = sessionIdOf(sessionSetCookie(first));
      const firstExpiry = Date.parse(/Expires=([^;]+)/.exec(sessionSetCookie(first)!)![1]);
      await new Promise((r) => setTimeout(r, 2200));
      const ttlBefore = await redis.ttl(sessionKey(id));
      expect(ttlBefore).toBeLessThanOrEqual(118);
      const second = await agent.get('/v1/user/session').expect(200);
      const secondExpiry = Date.parse(/Expires=([^;]+)/.exec(sessionSetCookie(second)!)![1]);
      expect(secondExpiry).toBeGreaterThan(firstExpiry);
      expect(sessionIdOf(sessionSetCookie(second))).toBe(id);
      const ttlAfter = await redis.ttl(sessionKey(id));
      expect(ttlAfter).toBeGreaterThan(ttlBefore);
      expect(ttlAfter).toBeGreaterThanOrEqual(119);
    });
  });

  describe('logout', () => {
    it('destroys the session in Redis, clears the cookie, and the old cookie then gets 401', async () => {
      const { agent } = await loggedInAgent(t);
      const id = sessionIdOf(sessionSetCookie(await agent.get('/v1/user/session').expect(200)));
      const oldCookie = `connect.sid=${encodeURIComponent(`s:${id}`)}`;
      const res = await agent.post('/v1/user/logout').expect(200);
      expect(res.body).toEqual({ success: true });
      const cleared = sessionSetCookie(res)!;
      expect(cleared).toMatch(/^connect\.sid=;/);
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
      expect(await redis.exists(sessionKey(id))).toBe(0);
      await agent.get('/v1/user/session').expect(401);
      const signed =
        (await agent.jar.getCookie('connect.sid', {
          path: '/',
          domain: '127.0.0.1',
          secure: false,
          script: false,
        })) ?? null;
      expect(signed).toBeFalsy();
      await t.http.get('/v1/user/session').set('Cookie', oldCookie).expect(401);
    });

    it('replays of the pre-logout cookie are refused', async () => {
      const { email, password } = await registerUser(t);
      const login = await t.http.post('/v1/user/login').send({ email, password }).expect(200);
      const cookie = sessionSetCookie(login)!.split(';')[0];
      await t.http.post('/v1/user/logout').set('Cookie', cookie).expect(200);
      await t.http.get('/v1/user/session').set('Cookie', cookie).expect(401);
      await t.http.post('/v1/user/logout').set('Cookie', cookie).expect(401);
    });

    it('answers 401 without a session', async () => {
      const res = await t.http.post('/v1/user/logout').expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
    });

    it('is refused cross-site', async () => {
      const { agent } = await loggedInAgent(t);
      await agent.post('/v1/user/logout').set('Sec-Fetch-Site', 'cross-site').expect(403);
      await agent.get('/v1/user/session').expect(200);
    });
  });
});
