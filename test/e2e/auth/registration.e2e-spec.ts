import { DataSource } from 'typeorm';
import { codeOf, FakeSmtp } from '../../fakes/smtp';
import { createTestApp, TestApp } from '../../support/app';
import { randomIp } from '../../support/users';
import { MESSAGE_BODY } from '../../support/errors';

const keyed = (key: string) => ({ error: 'Bad Request', key });
let n = 0;
const uniqueEmail = (domain = 'example.test') => `reg-${Date.now()}-${n++}@${domain}`;
const PASSWORD = 'a perfectly fine passphrase';

describe('POST /v1/user (registration)', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    t = await createTestApp({
      mail: true,
      env: {
        BLOCKED_EMAILS: 'Blocked@Example.test, other@example.test',
        BLOCKED_EMAIL_DOMAINS: 'spam.test,@junk.test',
        REGISTRATION_IP_LIMIT: '3',
      },
    });
    smtp = t.smtp;
  });
  afterAll(() => t.close());

  const register = (body: object, ip = randomIp()) =>
    t.http.post('/v1/user').set('X-Forwarded-For', ip).send(body);

  it('creates an unverified user with its personal entity and profile, and mails a code', async () => {
    const email = uniqueEmail();
    const res = await register({
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD,
      name: 'Ada Lovelace',
      referralCode: 'NOSUCHCODE',
    }).expect(201);
    expect(res.body).toEqual({
      user: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email,
        name: 'Ada Lovelace',
        emailVerified: false,
        twoFactorEnabled: false,
        entityId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        profileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        created: expect.any(String),
      },
    });
    const mail = await smtp.nextMail(email);
    expect(mail.subject).toMatch(/verification code/i);
    expect(codeOf(mail)).toMatch(/^\d{6}$/);

    const db = t.get<DataSource>(DataSource);
    const [row] = await db.query(
      'SELECT password_hash, referral_code, registration_ip FROM user_account WHERE id = $1',
      [res.body.user.id],
    );
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.referral_code).toBe('NOSUCHCODE');
    const [code] = await db.query(
      'SELECT code_digest, expires_at FROM email_verification_code WHERE user_id = $1',
      [res.body.user.id],
    );
    expect(code.code_digest).not.toContain(codeOf(mail));
    const lifeHours = (new Date(code.expires_at).getTime() - Date.now()) / 3_600_000;
    expect(lifeHours).toBeGreaterThan(23.9);
    expect(lifeHours).toBeLessThanOrEqual(24);
    const [entity] = await db.query('SELECT kind, email FROM entity WHERE id = $1', [
      res.body.user.entityId,
    ]);
    expect(entity).toEqual({ kind: 'person', email });
  });

  it('refuses a second account for the same address, whatever its case: emailUnavailable', async () => {
    const email = uniqueEmail();
    await register({ email, password: PASSWORD }).expect(201);
    const res = await register({ email: email.toUpperCase(), password: PASSWORD }).expect(400);
    expect(res.body).toEqual(keyed('emailUnavailable'));
  });

  it('refuses a common password with {error, message}', async () => {
    const res = await register({ email: uniqueEmail(), password: 'Password123' }).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(/common/) });
  });

  it.each([
    ['short password', { password: 'short' }],
    ['long password', { password: 'x'.repeat(129) }],
    ['bad e-mail', { email: 'not-an-address' }],
    ['non-string name', { name: 42 }],
  ])('refuses a %s with {error, message}', async (_, patch) => {
    const res = await register({ email: uniqueEmail(), password: PASSWORD, ...patch }).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
  });

  it('refuses a missing password with the invalidFields key', async () => {
    const res = await register({ email: uniqueEmail(), password: undefined }).expect(400);
    expect(res.body).toEqual({
      error: 'Bad Request',
      key: 'invalidFields',
      message: 'password is required',
    });
  });

  it('accepts passwords of 8 and 128 characters without composition rules', async () => {
    await register({ email: uniqueEmail(), password: 'qzvmxkwp' }).expect(201);
    await register({ email: uniqueEmail(), password: 'q'.repeat(128) }).expect(201);
  });

  it('refuses a blocked address: EmailBlacklisted', async () => {
    const res = await register({ email: 'blocked@example.test', password: PASSWORD }).expect(400);
    expect(res.body).toEqual(keyed('EmailBlacklisted'));
    await register({ email: ' OTHER@example.test', password: PASSWORD }).expect(400);
  });

  it('refuses an address of a blocked domain or its subdomains: DomainBlacklisted', async () => {
    for (const email of [
      uniqueEmail('spam.test'),
      uniqueEmail('mail.spam.test'),
      uniqueEmail('junk.test'),
    ]) {
      const res = await register({ email, password: PASSWORD }).expect(400);
      expect(res.body).toEqual(keyed('DomainBlacklisted'));
    }
    await register({ email: uniqueEmail('notspam.test'), password: PASSWORD }).expect(201);
  });

  it('seeds the blocklist idempotently (one row per entry)', async () => {
    const rows = await t
      .get<DataSource>(DataSource)
      .query('SELECT kind, value FROM email_blocklist_entry ORDER BY kind, value');
    expect(rows).toEqual([
      { kind: 'address', value: 'blocked@example.test' },
      { kind: 'address', value: 'other@example.test' },
      { kind: 'domain', value: 'junk.test' },
      { kind: 'domain', value: 'spam.test' },
    ]);
  });

  it('allows REGISTRATION_IP_LIMIT registrations per client IP (X-Forwarded-For): ipLimitReached', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 3; i++)
      await register({ email: uniqueEmail(), password: PASSWORD }, ip).expect(201);
    const res = await register({ email: uniqueEmail(), password: PASSWORD }, ip).expect(400);
    expect(res.body).toEqual(keyed('ipLimitReached'));
    await register({ email: uniqueEmail(), password: PASSWORD }, '203.0.113.8').expect(201);
  });

  it('refuses a cross-site request with 403', async () => {
    const email = uniqueEmail();
    const cross = await register({ email, password: PASSWORD })
      .set('Sec-Fetch-Site', 'cross-site')
      .expect(403);
    expect(cross.body).toEqual(MESSAGE_BODY);
    const foreign = await t.http
      .post('/v1/user')
      .set('Origin', 'https://evil.test')
      .send({ email, password: PASSWORD })
      .expect(403);
    expect(foreign.body).toEqual(MESSAGE_BODY);
    await t.http
      .post('/v1/user')
      .set('Origin', 'http://frontend.test')
      .set('Sec-Fetch-Site', 'same-site')
      .set('X-Forwarded-For', randomIp())
      .send({ email, password: PASSWORD })
      .expect(201);
  });
});

describe('registration blocklist seeding across restarts', () => {
  it('keeps one row per entry when the app starts twice on one database', async () => {
    const env = { BLOCKED_EMAILS: 'twice@example.test', BLOCKED_EMAIL_DOMAINS: 'twice.test' };
    const first = await createTestApp({ env });
    await first.close({ keepData: true });
    const second = await createTestApp({
      env,
      database: first.database,
      redisPrefix: first.redisPrefix,
    });
    try {
      const rows = await second
        .get<DataSource>(DataSource)
        .query('SELECT kind, value FROM email_blocklist_entry');
      expect(rows).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
