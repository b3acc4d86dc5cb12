import { createTestApp, TestApp } from '../../support/app';
import { randomIp, registerUser } from '../../support/users';

describe('login throttling (10 failures in 15 minutes, per account and per IP)', () => {
  let t: TestApp;
  beforeAll(async () => {
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

    const right = await login(email, password);
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    expect(right.headers['set-cookie']).toBeUndefined();
  });

  it('counts failures for unknown addresses too', async () => {
    const email = 'never-registered@example.test';
    for (let i = 0; i < 10; i++) expect((await login(email, 'guess')).status).toBe(400);
    expect((await login(email, 'guess')).status).toBe(429);
  });

  it('throttles an IP after 10 failures across accounts, and only that IP', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      expect((await login(`spray-${i}@example.test`, 'Summer2024!', ip)).status).toBe(400);
    }
    const { email, password } = await registerUser(t);
    const res = await login(email, password, ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(email, password)).status).toBe(200);
  });

  it('forgives an account its failures after a successful login', async () => {
    const { email, password } = await registerUser(t);
    for (let i = 0; i < 9; i++) expect((await login(email, 'nope nope')).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(email, 'nope nope')).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
  });
});
