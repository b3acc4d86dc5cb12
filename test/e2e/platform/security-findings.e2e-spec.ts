import { authenticator } from 'otplib';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { MESSAGE_BODY } from '../../support/errors';
import { createOrg } from '../../support/orgs';
import { loggedInAgent, registerUser } from '../../support/users';

/**
 * The findings of the security review, each as the attack that used to work. Every test here
 * failed on the code before its fix.
 */

const tokenAt = (secret: string, offset = 0) =>
  authenticator.clone({ epoch: Date.now() + offset * 30_000 }).generate(secret);
const wrong = (token: string) => String((Number(token) + 500_000) % 1_000_000).padStart(6, '0');

describe('finding 1: two-factor codes cannot be brute-forced', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function userWithTwoFactor() {
    const { agent, email, password } = await loggedInAgent(t);
    const setup = await agent.get('/v1/user/2fa').expect(200);
    await agent
      .post('/v1/user/2fa')
      .send({ token: tokenAt(setup.body.secret) })
      .expect(200);
    return { email, password, secret: setup.body.secret as string };
  }

  /** The password step, from a fresh client address each time. */
  async function passwordStep(email: string, password: string, ip: string): Promise<Agent> {
    const agent = t.agent();
    const res = await agent
      .post('/v1/user/login')
      .set('X-Forwarded-For', ip)
      .send({ email, password });
    expect(res.body).toEqual({ twoFactorRequired: true });
    return agent;
  }

  it('locks the second factor after 5 wrong codes, whatever the password and the address', async () => {
    const { email, password, secret } = await userWithTwoFactor();
    for (let i = 0; i < 5; i++) {
      // A correct password (which resets the password failures) and a new address each time.
      const agent = await passwordStep(email, password, `198.51.100.${i + 1}`);
      await agent
        .post('/v1/user/2fa/verify')
        .set('X-Forwarded-For', `198.51.100.${i + 1}`)
        .send({ token: wrong(tokenAt(secret)) })
        .expect(400);
    }
    // Locked: the password step says so, and a code, even the right one, is refused.
    const locked = await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-For', '198.51.100.77')
      .send({ email, password })
      .expect(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
  });

  it('refuses even the right code during the lock, at the code step (429 with Retry-After)', async () => {
    const { email, password, secret } = await userWithTwoFactor();
    const pending = await passwordStep(email, password, '203.0.113.1');
    for (let i = 0; i < 4; i++) {
      await pending
        .post('/v1/user/2fa/verify')
        .send({ token: wrong(tokenAt(secret)) })
        .expect(400);
    }
    const agent = await passwordStep(email, password, '203.0.113.2');
    await agent
      .post('/v1/user/2fa/verify')
      .send({ token: wrong(tokenAt(secret)) })
      .expect(400);
    const res = await agent
      .post('/v1/user/2fa/verify')
      .send({ token: tokenAt(secret, 1) })
      .expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await agent.get('/v1/user/session')).status).toBe(401);
  });

  it('forgives earlier wrong codes after a right one (below the lock)', async () => {
    const { email, password, secret } = await userWithTwoFactor();
    const agent = await passwordStep(email, password, '203.0.113.9');
    for (let i = 0; i < 4; i++) {
      await agent
        .post('/v1/user/2fa/verify')
        .send({ token: wrong(tokenAt(secret)) })
        .expect(400);
    }
    await agent
      .post('/v1/user/2fa/verify')
      .send({ token: tokenAt(secret, 1) })
      .expect(200);
  });
});

describe('password change throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 429 after 10 wrong current passwords from a stolen session', async () => {
    const { agent } = await loggedInAgent(t);
    for (let i = 0; i < 10; i++) {
      await agent
        .put('/v1/user/password')
        .send({ currentPassword: `guess-${i}`, newPassword: 'A fresh passphrase 42' })
        .expect(400);
    }
    const res = await agent
      .put('/v1/user/password')
      .send({ currentPassword: 'another guess', newPassword: 'A fresh passphrase 42' })
      .expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('finding 2: the client address is not the client’s to choose (default TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The lowest per-address limit there is (above the per-account 10), so the loop stays short.
    t = await createTestApp({ env: { TRUST_PROXY: '', LOGIN_IP_FAILURE_LIMIT: '11' } });
  });
  afterAll(() => t.close());

  it('keeps counting failed logins per address whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 11; i++) {
      await t.http
        .post('/v1/user/login')
        .set('X-Forwarded-For', `192.0.2.${i + 1}`)
        .send({ email: `nobody-${i}@example.test`, password: 'wrong password' })
        .expect(400);
    }
    await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-For', '192.0.2.200')
      .send({ email: 'nobody-else@example.test', password: 'wrong password' })
      .expect(429);
  });

  it('records the socket’s address at registration, not the header’s', async () => {
    const { user } = await registerUser(t, { ip: '192.0.2.50' });
    const [row] = await t
      .get<DataSource>(DataSource)
      .query('SELECT registration_ip FROM user_account WHERE id = $1', [user.id]);
    expect(row.registration_ip).not.toBe('192.0.2.50');
    expect(['127.0.0.1', '::1']).toContain(row.registration_ip);
  });
});

describe('finding 3: cross-site requests on every module', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof loggedInAgent>>;
  let orgId: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOWED_ORIGINS: 'https://partner.example' } });
    owner = await loggedInAgent(t);
    orgId = (await createOrg(owner.agent, 'Guarded')).id;
  });
  afterAll(() => t.close());

  const organizations = async () =>
    (await owner.agent.get('/v1/organization').expect(200)).body as { name: string }[];

  it('refuses a foreign Origin with 403 {message} and changes nothing', async () => {
    const res = await owner.agent
      .post('/v1/organization')
      .set('Origin', 'https://evil.example')
      .send({ name: 'Planted' })
      .expect(403);
    expect(res.body).toEqual(MESSAGE_BODY);
    await owner.agent
      .patch(`/v1/organization/${orgId}`)
      .set('Origin', 'null')
      .send({ name: 'Renamed' })
      .expect(403);
    expect((await organizations()).map((o) => o.name)).toEqual(['Guarded']);
  });

  it('lets Origin decide alone when present', async () => {
    await owner.agent
      .patch(`/v1/organization/${orgId}`)
      .set('Origin', 'https://evil.example')
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ name: 'Renamed' })
      .expect(403);
    await owner.agent
      .patch(`/v1/organization/${orgId}`)
      .set('Origin', 'http://frontend.test')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ name: 'Guarded' })
      .expect(200);
  });

  it('refuses Sec-Fetch-Site: cross-site without Origin, on writes of any module', async () => {
    const cross = (r: ReturnType<Agent['post']>) => r.set('Sec-Fetch-Site', 'cross-site');
    expect(
      (
        await cross(owner.agent.post(`/v1/organization/${orgId}/role`)).send({
          name: 'R',
          permissions: [],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await cross(owner.agent.post(`/v1/organization/${orgId}/action`)).send({
          type: 'a.b',
          description: 'x',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await owner.agent
          .patch('/v1/user/state')
          .set('Sec-Fetch-Site', 'cross-site')
          .send({ completedSteps: [] })
      ).status,
    ).toBe(403);
    expect(
      (await owner.agent.delete(`/v1/organization/${orgId}`).set('Sec-Fetch-Site', 'cross-site'))
        .status,
    ).toBe(403);
    await owner.agent.get(`/v1/organization/${orgId}`).expect(200);
  });

  it('accepts the frontend, ALLOWED_ORIGINS, and clients that send neither header', async () => {
    await owner.agent
      .post(`/v1/organization/${orgId}/action`)
      .set('Origin', 'http://frontend.test')
      .send({ type: 'a.b', description: 'from the app' })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${orgId}/action`)
      .set('Origin', 'https://partner.example')
      .send({ type: 'a.b', description: 'from a partner' })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${orgId}/action`)
      .send({ type: 'a.b', description: 'from curl' })
      .expect(201);
  });

  it('accepts only JSON bodies: a form post (what a cross-site HTML form sends) is 415', async () => {
    const before = (await organizations()).length;
    const res = await owner.agent
      .post('/v1/organization')
      .type('form')
      .send('name=Planted')
      .expect(415);
    expect(res.body).toMatchObject({
      error: 'Unsupported Media Type',
      message: expect.any(String),
    });
    await owner.agent
      .post(`/v1/organization/${orgId}/action`)
      .set('Content-Type', 'text/plain')
      .send('{"type":"a.b","description":"x"}')
      .expect(415);
    expect(await organizations()).toHaveLength(before);
  });
});

describe('a body over the size limit on a non-auth route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is 413 {error, message} and stores nothing', async () => {
    const { agent } = await loggedInAgent(t);
    const org = await createOrg(agent);
    const res = await agent
      .post(`/v1/organization/${org.id}/action`)
      .send({ type: 'a.b', description: 'x', metadata: { blob: 'x'.repeat(1_100_000) } })
      .expect(413);
    expect(res.body).toEqual({ error: 'Payload Too Large', message: expect.any(String) });
    const log = await agent.get(`/v1/organization/${org.id}/action?type=a.b`).expect(200);
    expect(log.body).toEqual([]);
  });
});

describe('finding 5: unknown query parameters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are refused with 400 {message} naming them, on GET routes of every module', async () => {
    const { agent, user } = await loggedInAgent(t);
    const org = await createOrg(agent);
    for (const path of [
      `/v1/organization?status=active`,
      `/v1/organization/${org.id}/member?role=Viewer`,
      `/v1/organization/${org.id}/action?limt=5`,
      `/v1/user/state?verbose=1`,
      `/v1/profile/${user.profileId}?fields=phone`,
    ]) {
      const res = await agent.get(path).expect(400);
      expect(res.body).toEqual({ message: expect.stringMatching(/unknown query parameter "\w+"/) });
    }
  });

  it('are refused even beside known ones; known ones still work', async () => {
    const { agent } = await loggedInAgent(t);
    const org = await createOrg(agent);
    await agent.get(`/v1/organization/${org.id}/action?limit=5`).expect(200);
    const res = await agent.get(`/v1/organization/${org.id}/action?limit=5&tpye=x`).expect(400);
    expect(res.body.message).toContain('"tpye"');
    expect(res.body.message).toContain('limit');
  });
});
