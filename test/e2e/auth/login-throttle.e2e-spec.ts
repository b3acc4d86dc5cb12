import { createTestApp, TestApp } from '../../support/app';
import { loggedInAgent, randomIp, registerUser } from '../../support/users';

const NEW_PASSWORD = 'A-new-and-long-password-42';

describe('login throttling (10 failures in 15 minutes per account, LOGIN_IP_FAILURE_LIMIT per IP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // LOGIN_IP_FAILURE_LIMIT unset: 100 per IP.
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip = randomIp()) =>
    t.http.post('/v1/user/login').set('X-Forwarded-For', ip).send({ email, password });

  it('throttles an account after 10 failures, even with the right password, with Retry-After', async () => {
    const { email, password } = await registerUser(t);
    for (let i = 0; i < 10; i++) {
      const res = await login(email, `wrong password ${i}`);
      expect(res.status).toBe(400);
      expect(res.body.key).toBe('invalidCredentials');
    }
    const throttled = await login(email, 'wrong again');
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
    const retryAfter = Number(throttled.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(880);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Spec section 8's headers: the limit reached, none left, and when to retry (unix seconds).
    expect(throttled.headers['x-ratelimit-limit']).toBe('10');
    expect(throttled.headers['x-ratelimit-remaining']).toBe('0');
    const now = Math.floor(Date.now() / 1000);
    expect(Number(throttled.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(now + 880);
    expect(Number(throttled.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(now + 902);

    const right = await login(email, password);
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    expect(right.headers['set-cookie']).toBeUndefined();
  });

  it('throttles an account after 10 failures from one IP as well', async () => {
    const { email, password } = await registerUser(t);
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await login(email, 'nope nope', ip)).status).toBe(400);
    expect((await login(email, password, ip)).status).toBe(429);
  });

  it('counts failures for unknown addresses too', async () => {
    const email = 'never-registered@example.test';
    for (let i = 0; i < 10; i++) expect((await login(email, 'guess')).status).toBe(400);
    expect((await login(email, 'guess')).status).toBe(429);
  });

  it('does not lock an IP after 11+ failures across accounts (below the IP limit of 100)', async () => {
    const ip = randomIp();
    for (let i = 0; i < 25; i++) {
      expect((await login(`spray-${i}@example.test`, 'Summer2024!', ip)).status).toBe(400);
    }
    const { email, password } = await registerUser(t);
    const res = await login(email, password, ip);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(email);
  });

  it('forgives an account its failures after a successful login', async () => {
    const { email, password } = await registerUser(t);
    for (let i = 0; i < 9; i++) expect((await login(email, 'nope nope')).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(email, 'nope nope')).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
  });

  it('throttles a password change after 10 wrong current passwords of the account', async () => {
    const { agent, email, password } = await loggedInAgent(t);
    const change = (currentPassword: string) =>
      agent
        .put('/v1/user/password')
        .set('X-Forwarded-For', randomIp())
        .send({ currentPassword, newPassword: NEW_PASSWORD });
    for (let i = 0; i < 10; i++) {
      const res = await change(`wrong ${i}`);
      expect(res.status).toBe(400);
      expect(res.body.key).toBe('invalidCredentials');
    }
    const throttled = await change(password);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // The same account counter refuses a login, too.
    expect((await login(email, password)).status).toBe(429);
  });
});

describe('login throttling per IP with LOGIN_IP_FAILURE_LIMIT=15', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_IP_FAILURE_LIMIT: '15' } });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip = randomIp()) =>
    t.http.post('/v1/user/login').set('X-Forwarded-For', ip).send({ email, password });

  it('allows a correct login below the IP limit, then 429 with Retry-After at it, only for that IP', async () => {
    const ip = randomIp();
    const { email, password } = await registerUser(t);
    for (let i = 0; i < 14; i++) {
      expect((await login(`spray-${i}@example.test`, 'Summer2024!', ip)).status).toBe(400);
    }
    // 14 failures from the IP, none of this account: below the limit.
    expect((await login(email, password, ip)).status).toBe(200);

    expect((await login('spray-14@example.test', 'Summer2024!', ip)).status).toBe(400);
    const res = await login(email, password, ip);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(880);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(res.headers['set-cookie']).toBeUndefined();
    // An unknown address from that IP too; the same account from another IP logs in.
    expect((await login('someone-else@example.test', 'x', ip)).status).toBe(429);
    expect((await login(email, password)).status).toBe(200);
  });

  it('counts wrong current passwords of password changes toward the IP limit', async () => {
    const ip = randomIp();
    const first = await loggedInAgent(t);
    const second = await loggedInAgent(t);
    const change = (user: typeof first, currentPassword: string) =>
      user.agent
        .put('/v1/user/password')
        .set('X-Forwarded-For', ip)
        .send({ currentPassword, newPassword: NEW_PASSWORD });
    // 8 + 7 failures: each account below its own limit of 10, the IP at its limit of 15.
    for (let i = 0; i < 8; i++) expect((await change(first, 'wrong')).status).toBe(400);
    for (let i = 0; i < 7; i++) expect((await change(second, 'wrong')).status).toBe(400);
    const res = await change(first, first.password);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(second.email, second.password, ip)).status).toBe(429);
    // From another address the accounts are not locked.
    expect((await login(second.email, second.password)).status).toBe(200);
  });
});
