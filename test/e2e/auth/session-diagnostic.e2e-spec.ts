import { createTestApp, TestApp } from '../../support/app';
import { sessionIdOf, sessionSetCookie } from '../../support/sessions';
import { loggedInAgent, registerUser } from '../../support/users';
import { ERROR_BODIES } from '../../support/errors';

describe('GET /v1/user/session/diagnostic (test environment)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('describes a request without a session, without creating one', async () => {
    const res = await t.http.get('/v1/user/session/diagnostic').expect(200);
    expect(res.body).toEqual({
      hasSession: false,
      hasUser: false,
      userId: null,
      sessionIdPrefix: expect.stringMatching(/^.{8}\.\.\.$/),
      hasConnectSidCookie: false,
      cookieSecure: false,
      cookieMaxAge: expect.any(Number),
      timestamp: expect.any(String),
    });
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(sessionSetCookie(res)).toBeUndefined();
  });

  it('describes a logged-in session, showing only a prefix of its id', async () => {
    const { agent, user } = await loggedInAgent(t);
    const res = await agent.get('/v1/user/session/diagnostic').expect(200);
    const id = sessionIdOf(sessionSetCookie(res));
    expect(res.body).toMatchObject({
      hasSession: true,
      hasUser: true,
      userId: user.id,
      sessionIdPrefix: `${id.slice(0, 8)}...`,
      hasConnectSidCookie: true,
      cookieSecure: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(id);
    expect(res.body.cookieMaxAge).toBeGreaterThan(604_800_000 - 60_000);
    expect(res.body.cookieMaxAge).toBeLessThanOrEqual(604_800_000);
  });

  it('says so when the cookie names no live session', async () => {
    const res = await t.http
      .get('/v1/user/session/diagnostic')
      .set('Cookie', 'connect.sid=s%3Agone.signature')
      .expect(200);
    expect(res.body).toMatchObject({
      hasSession: false,
      hasUser: false,
      hasConnectSidCookie: true,
    });
  });
});

describe('GET /v1/user/session/diagnostic (production)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t.close());

  it('is 404', async () => {
    const res = await t.http.get('/v1/user/session/diagnostic').expect(404);
    expect(res.body).toEqual(ERROR_BODIES[404]);
  });

  it('marks the session cookie Secure behind a TLS-terminating proxy named by TRUST_PROXY', async () => {
    const { email, password } = await registerUser(t);
    const res = await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ email, password })
      .expect(200);
    expect(sessionSetCookie(res)).toMatch(/; Secure/);
  });
});

describe('a production session cookie behind a proxy that is not trusted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', TRUST_PROXY: '' } });
  });
  afterAll(() => t.close());

  it('is not sent over what may be plain HTTP: X-Forwarded-Proto is the client’s to invent', async () => {
    const { email, password } = await registerUser(t);
    const res = await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ email, password })
      .expect(200);
    expect(sessionSetCookie(res)).toBeUndefined();
  });
});
