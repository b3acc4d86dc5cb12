import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FakeIdp, foreignKey, IDP_CLIENT_ID } from '../../fakes/idp';
import { createTestApp, TestApp } from '../../support/app';
import { sessionIdOf, sessionSetCookie } from '../../support/sessions';
import { registerUser } from '../../support/users';

const keyed = (key: string) => ({ error: 'Bad Request', key });
const unique = () => randomBytes(5).toString('hex');

/** The provider's form post to the redirect route, with the double-submit cookie when given. */
function redirectForm(t: TestApp, fields: Record<string, string>, cookie?: string) {
  const req = t.http
    .post('/v1/user/idp-auth/redirect')
    .type('form')
    // The provider's page posts cross-site: the route relies on the double-submit token.
    .set('Sec-Fetch-Site', 'cross-site')
    .set('Origin', 'https://accounts.idp.test');
  if (cookie !== undefined) req.set('Cookie', `g_csrf_token=${cookie}`);
  return req.send(fields);
}

/** Each form post (fields, double-submit cookie) is refused 403 `{message}`, with no session. */
async function expectCsrfRefused(
  t: TestApp,
  cases: [Record<string, string>, string | undefined][],
) {
  for (const [fields, cookie] of cases) {
    const res = await redirectForm(t, fields, cookie).expect(403);
    expect(res.body).toEqual({ message: 'CSRF token validation failed' });
    expect(sessionSetCookie(res)).toBeUndefined();
  }
}

describe('identity-provider login', () => {
  let t: TestApp;
  let idp: FakeIdp;
  beforeAll(async () => {
    idp = await FakeIdp.start();
    t = await createTestApp({ env: { ...idp.env(), BLOCKED_EMAIL_DOMAINS: 'blocked.test' } });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const idpAuth = (token: unknown) => t.http.post('/v1/user/idp-auth').send({ token });
  const newIdentity = () => {
    const tag = unique();
    return { sub: `sub-${tag}`, email: `idp-${tag}@example.test`, name: `Idp User ${tag}` };
  };

  describe('POST /v1/user/idp-auth', () => {
    it('creates a verified user with personal records and starts a session', async () => {
      const claims = newIdentity();
      const res = await idpAuth(await idp.sign(claims)).expect(200);
      expect(res.body).toEqual({
        user: {
          id: expect.any(String),
          email: claims.email,
          name: claims.name,
          emailVerified: true,
          twoFactorEnabled: false,
          entityId: expect.any(String),
          profileId: expect.any(String),
          created: expect.any(String),
        },
      });
      const cookie = sessionSetCookie(res)!.split(';')[0];
      const session = await t.http.get('/v1/user/session').set('Cookie', cookie).expect(200);
      expect(session.body.user.id).toBe(res.body.user.id);
      // The same identity finds the same account again, under a new session id.
      const again = await idpAuth(await idp.sign(claims)).expect(200);
      expect(again.body.user.id).toBe(res.body.user.id);
      expect(sessionIdOf(sessionSetCookie(again))).not.toBe(sessionIdOf(sessionSetCookie(res)));
    });

    it('links an existing verified account of the same e-mail; its password keeps working', async () => {
      const { user, email, password } = await registerUser(t);
      const res = await idpAuth(
        await idp.sign({ sub: `sub-${unique()}`, email: email.toUpperCase() }),
      ).expect(200);
      expect(res.body.user.id).toBe(user.id);
      await t.http.post('/v1/user/login').send({ email, password }).expect(200);
    });

    it('takes over an unverified account of that e-mail, voiding the unproven password', async () => {
      const { user, email, password } = await registerUser(t, { unverified: true });
      const res = await idpAuth(await idp.sign({ sub: `sub-${unique()}`, email })).expect(200);
      expect(res.body.user).toMatchObject({ id: user.id, emailVerified: true });
      const login = await t.http.post('/v1/user/login').send({ email, password }).expect(400);
      expect(login.body).toEqual(keyed('invalidCredentials'));
    });

    it('refuses another provider identity for an already linked account (400 Unauthorized)', async () => {
      const claims = newIdentity();
      await idpAuth(await idp.sign(claims)).expect(200);
      const res = await idpAuth(await idp.sign({ ...claims, sub: `sub-${unique()}` })).expect(400);
      expect(res.body).toMatchObject(keyed('Unauthorized'));
    });

    it.each([
      ['a wrong audience', () => idp.sign({ ...newIdentity(), aud: 'someone-else' })],
      ['a wrong issuer', () => idp.sign({ ...newIdentity(), iss: 'https://evil.test' })],
      [
        'an expired token',
        () => idp.sign({ ...newIdentity(), exp: Math.floor(Date.now() / 1000) - 60 }),
      ],
      [
        'a token signed by another key under the same kid',
        async () => idp.sign(newIdentity(), { key: await foreignKey() }),
      ],
      [
        'a token signed by an unknown key',
        async () => idp.sign(newIdentity(), { key: await foreignKey(), kid: 'other' }),
      ],
      ['an unverified e-mail', () => idp.sign({ ...newIdentity(), email_verified: false })],
      ['a token without e-mail', () => idp.sign({ sub: 'no-email' })],
      ['garbage', async () => 'not.a.jwt'],
    ])('answers 400 with the key Unauthorized for %s, without a session', async (_, make) => {
      // A credential that does not verify is an authentication failure of section 7, like
      // invalidCredentials for a password, not a missing session (401).
      const res = await idpAuth(await make()).expect(400);
      expect(res.body).toEqual({ ...keyed('Unauthorized'), message: expect.any(String) });
      expect(sessionSetCookie(res)).toBeUndefined();
    });

    it('starts a second-factor login for an account with 2FA', async () => {
      const claims = newIdentity();
      const first = await idpAuth(await idp.sign(claims)).expect(200);
      await t
        .get<DataSource>(DataSource)
        .query(
          `UPDATE user_account SET two_factor_enabled = true, two_factor_secret = 'v1.x.y.z' WHERE id = $1`,
          [first.body.user.id],
        );
      const res = await idpAuth(await idp.sign(claims)).expect(200);
      expect(res.body).toEqual({ twoFactorRequired: true });
      const cookie = sessionSetCookie(res)!.split(';')[0];
      await t.http.get('/v1/user/session').set('Cookie', cookie).expect(401);
    });

    it('refuses a new account on a blocked domain: DomainBlacklisted', async () => {
      const res = await idpAuth(
        await idp.sign({ sub: `sub-${unique()}`, email: `x-${unique()}@blocked.test` }),
      ).expect(400);
      expect(res.body).toEqual(keyed('DomainBlacklisted'));
    });

    it('refuses a missing token with {error, key: invalidFields, message}', async () => {
      const res = await t.http.post('/v1/user/idp-auth').send({}).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'invalidFields',
        message: 'token is required',
      });
    });

    it('is refused cross-site', async () => {
      await idpAuth(await idp.sign(newIdentity()))
        .set('Sec-Fetch-Site', 'cross-site')
        .expect(403);
    });
  });

  describe('POST /v1/user/idp-auth/redirect', () => {
    const form = (fields: Record<string, string>, cookie?: string) =>
      redirectForm(t, fields, cookie);

    it('rule 4: logs in and redirects to /login?authenticated=true', async () => {
      const csrf = unique();
      const res = await form(
        { credential: await idp.sign(newIdentity()), g_csrf_token: csrf },
        csrf,
      ).expect(302);
      expect(res.headers.location).toBe('http://frontend.test/login?authenticated=true');
      const cookie = sessionSetCookie(res)!.split(';')[0];
      await t.http.get('/v1/user/session').set('Cookie', cookie).expect(200);
    });

    it('rule 2: a missing credential is 400 {message}', async () => {
      const res = await form({ g_csrf_token: 'abc' }, 'abc').expect(400);
      expect(res.body).toEqual({ message: 'Missing credential' });
    });

    it('rules 1 and 3: a missing or different g_csrf_token is 403 {message}', async () => {
      const credential = await idp.sign(newIdentity());
      await expectCsrfRefused(t, [
        [{ credential }, 'abc'],
        [{ credential, g_csrf_token: 'abc' }, undefined],
        [{ credential, g_csrf_token: 'abc' }, 'abd'],
        [{ credential, g_csrf_token: '' }, ''],
      ]);
    });

    it('rule 5: a credential that does not verify redirects to /login?error=auth_failed', async () => {
      const res = await form(
        { credential: await idp.sign({ ...newIdentity(), aud: 'other' }), g_csrf_token: 'x1' },
        'x1',
      ).expect(302);
      expect(res.headers.location).toBe('http://frontend.test/login?error=auth_failed');
      expect(sessionSetCookie(res)).toBeUndefined();
      const garbage = await form({ credential: 'garbage', g_csrf_token: 'x1' }, 'x1').expect(302);
      expect(garbage.headers.location).toBe('http://frontend.test/login?error=auth_failed');
    });
  });
});

describe('identity-provider login when IDP_CLIENT_ID is unset', () => {
  let t: TestApp;
  let idp: FakeIdp;
  beforeAll(async () => {
    idp = await FakeIdp.start();
    t = await createTestApp({ env: { IDP_JWKS_URL: idp.jwksUrl, IDP_CLIENT_ID: '' } });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  // A token the provider would vouch for, had the service been given its client id.
  const goodToken = () =>
    idp.sign({ sub: `sub-${unique()}`, email: `idp-${unique()}@example.test`, aud: IDP_CLIENT_ID });

  describe('POST /v1/user/idp-auth', () => {
    it('refuses every token like one that does not verify: 400 Unauthorized, no session', async () => {
      for (const token of [await goodToken(), 'not.a.jwt']) {
        const res = await t.http.post('/v1/user/idp-auth').send({ token }).expect(400);
        expect(res.body).toEqual({ ...keyed('Unauthorized'), message: expect.any(String) });
        expect(sessionSetCookie(res)).toBeUndefined();
      }
      expect(idp.fetches).toBe(0);
    });

    it('still refuses a missing token with {error, key: invalidFields, message}', async () => {
      const res = await t.http.post('/v1/user/idp-auth').send({}).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'invalidFields',
        message: 'token is required',
      });
    });
  });

  describe('POST /v1/user/idp-auth/redirect', () => {
    const form = (fields: Record<string, string>, cookie?: string) =>
      redirectForm(t, fields, cookie);

    it('rule 2 first: a missing credential is 400 {message}, whatever the CSRF token', async () => {
      for (const [fields, cookie] of [
        [{ g_csrf_token: 'abc' }, 'abc'],
        [{}, undefined],
      ] as [Record<string, string>, string | undefined][]) {
        const res = await form(fields, cookie).expect(400);
        expect(res.body).toEqual({ message: 'Missing credential' });
      }
    });

    it('rules 1 and 3 next: a missing or different g_csrf_token is 403 {message}', async () => {
      const credential = await goodToken();
      await expectCsrfRefused(t, [
        [{ credential }, 'abc'],
        [{ credential, g_csrf_token: 'abc' }, undefined],
        [{ credential, g_csrf_token: 'abc' }, 'abd'],
      ]);
    });

    it('rule 5: a credential with a valid CSRF token redirects to /login?error=auth_failed', async () => {
      for (const credential of [await goodToken(), 'garbage']) {
        const csrf = unique();
        const res = await form({ credential, g_csrf_token: csrf }, csrf).expect(302);
        expect(res.headers.location).toBe('http://frontend.test/login?error=auth_failed');
        expect(sessionSetCookie(res)).toBeUndefined();
      }
      expect(idp.fetches).toBe(0);
    });
  });
});
