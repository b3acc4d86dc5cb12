import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { FakeSmtp, temporaryPasswordOf } from '../../fakes/smtp';
import { createTestApp, TestApp } from '../../support/app';
import { sessionIdOf, sessionSetCookie, testRedis } from '../../support/sessions';
import { logIn, loggedInAgent, registerUser } from '../../support/users';
import { ERROR_BODIES } from '../../support/errors';

const keyed = (key: string) => ({ error: 'Bad Request', key });
const NEW_PASSWORD = 'a brand new passphrase';

describe('password reset and change', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  let redis: Redis;
  beforeAll(async () => {
    t = await createTestApp({ mail: true });
    smtp = t.smtp;
    redis = testRedis();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });

  const reset = (email: string) => t.http.post('/v1/user/password/reset').send({ email });
  const login = (email: string, password: string) =>
    t.http.post('/v1/user/login').send({ email, password });
  const drain = async (email: string) => {
    while (smtp.hasUnread(email)) await smtp.nextMail(email);
  };

  describe('POST /v1/user/password/reset', () => {
    it('mails a temporary password that logs in once, within the hour', async () => {
      const { email, password } = await registerUser(t);
      await drain(email);
      const res = await reset(email.toUpperCase()).expect(200);
      expect(res.body).toEqual({ success: true });
      const temporary = temporaryPasswordOf(await smtp.nextMail(email));
      expect(temporary).toMatch(/^\S{16}$/);

      const first = await login(email, temporary).expect(200);
      expect(first.body.user.email).toBe(email);
      const second = await login(email, temporary).expect(400);
      expect(second.body).toEqual(keyed('invalidCredentials'));
      // The old password keeps working until a new one is set.
      await login(email, password).expect(200);
    });

    it('refuses a second request while a temporary password is active: existingActiveTempPassword', async () => {
      const { email } = await registerUser(t);
      await reset(email).expect(200);
      const res = await reset(email).expect(400);
      expect(res.body).toEqual(keyed('existingActiveTempPassword'));
    });

    it('allows a new request once the temporary password is used or expired', async () => {
      const { email, user } = await registerUser(t);
      await drain(email);
      await reset(email).expect(200);
      await login(email, temporaryPasswordOf(await smtp.nextMail(email))).expect(200);
      await reset(email).expect(200);
      const expired = temporaryPasswordOf(await smtp.nextMail(email));
      await t
        .get<DataSource>(DataSource)
        .query(
          `UPDATE temporary_password SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
          [user.id],
        );
      expect((await login(email, expired).expect(400)).body).toEqual(keyed('invalidCredentials'));
      await reset(email).expect(200);
    });

    it('answers an unknown address with userNotFound', async () => {
      const res = await reset('nobody-at-all@example.test').expect(400);
      expect(res.body).toEqual(keyed('userNotFound'));
    });

    it('refuses a malformed address with {error, message}', async () => {
      const res = await reset('not an address').expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
    });

    it('verifies the address of an unverified account whose temporary password is used', async () => {
      const { email } = await registerUser(t, { unverified: true });
      await drain(email);
      await reset(email).expect(200);
      const res = await login(email, temporaryPasswordOf(await smtp.nextMail(email))).expect(200);
      expect(res.body.user.emailVerified).toBe(true);
    });

    it('stores only a hash of the temporary password', async () => {
      const { email, user } = await registerUser(t);
      await drain(email);
      await reset(email).expect(200);
      const temporary = temporaryPasswordOf(await smtp.nextMail(email));
      const [row] = await t
        .get<DataSource>(DataSource)
        .query('SELECT password_hash, expires_at FROM temporary_password WHERE user_id = $1', [
          user.id,
        ]);
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain(temporary);
      const minutes = (new Date(row.expires_at).getTime() - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(59);
      expect(minutes).toBeLessThanOrEqual(60);
    });
  });

  describe('PUT /v1/user/password', () => {
    it('sets a new password: the old one stops working', async () => {
      const { agent, email, password } = await loggedInAgent(t);
      const res = await agent
        .put('/v1/user/password')
        .send({ currentPassword: password, newPassword: NEW_PASSWORD })
        .expect(200);
      expect(res.body).toEqual({ success: true });
      await login(email, password).expect(400);
      await login(email, NEW_PASSWORD).expect(200);
    });

    it('accepts the temporary password of the session as the current one', async () => {
      const { email } = await registerUser(t);
      await drain(email);
      await reset(email).expect(200);
      const temporary = temporaryPasswordOf(await smtp.nextMail(email));
      const agent = await logIn(t, email, temporary);
      await agent
        .put('/v1/user/password')
        .send({ currentPassword: temporary, newPassword: NEW_PASSWORD })
        .expect(200);
      await login(email, NEW_PASSWORD).expect(200);
    });

    it('ends every other session of the user, in Redis too, and keeps the caller logged in', async () => {
      const { agent, email, password } = await loggedInAgent(t);
      const other = await logIn(t, email, password);
      const third = await logIn(t, email, password);
      const otherId = sessionIdOf(
        sessionSetCookie(await other.get('/v1/user/session').expect(200)),
      );
      await third.get('/v1/user/session').expect(200);
      const stranger = await loggedInAgent(t);

      await agent
        .put('/v1/user/password')
        .send({ currentPassword: password, newPassword: NEW_PASSWORD })
        .expect(200);

      await agent.get('/v1/user/session').expect(200);
      await other.get('/v1/user/session').expect(401);
      await third.get('/v1/user/session').expect(401);
      expect(await redis.exists(`${t.redisPrefix}sess:${otherId}`)).toBe(0);
      await stranger.agent.get('/v1/user/session').expect(200);
    });

    it('refuses a wrong current password: invalidCredentials', async () => {
      const { agent } = await loggedInAgent(t);
      const res = await agent
        .put('/v1/user/password')
        .send({ currentPassword: 'not my password', newPassword: NEW_PASSWORD })
        .expect(400);
      expect(res.body).toEqual(keyed('invalidCredentials'));
    });

    it('refuses a common or short new password with {error, message}', async () => {
      const { agent, password } = await loggedInAgent(t);
      for (const newPassword of ['iloveyou123', 'short']) {
        const res = await agent
          .put('/v1/user/password')
          .send({ currentPassword: password, newPassword })
          .expect(400);
        expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
      }
    });

    it('answers 401 without a session', async () => {
      const res = await t.http
        .put('/v1/user/password')
        .send({ currentPassword: 'whatever-it-is', newPassword: NEW_PASSWORD })
        .expect(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
    });

    it('is refused cross-site', async () => {
      const { agent, password } = await loggedInAgent(t);
      await agent
        .put('/v1/user/password')
        .set('Origin', 'https://evil.test')
        .send({ currentPassword: password, newPassword: NEW_PASSWORD })
        .expect(403);
    });
  });
});
