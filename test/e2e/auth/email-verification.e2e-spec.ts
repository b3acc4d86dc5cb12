import { DataSource } from 'typeorm';
import { codeOf, FakeSmtp } from '../../fakes/smtp';
import { createTestApp, TestApp } from '../../support/app';
import { takeClock } from '../../support/clock';
import { randomIp, registerUser } from '../../support/users';

const keyed = (key: string) => ({ error: 'Bad Request', key });

describe('e-mail verification', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    t = await createTestApp({ mail: true, env: { EMAIL_VERIFICATION_LIMIT_SECONDS: '2' } });
    smtp = t.smtp;
  });
  afterAll(() => t.close());
  /** The app's clock, moved past the cooldown (EMAIL_VERIFICATION_LIMIT_SECONDS) instead of waited out. */
  let clock: ReturnType<typeof takeClock>;
  beforeEach(() => (clock = takeClock(t)));
  afterEach(() => clock.restore());

  const newUser = async () => {
    const registered = await registerUser(t, { unverified: true });
    const code = codeOf(await smtp.nextMail(registered.email));
    return { ...registered, code };
  };
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  describe('POST /v1/user/email/verify', () => {
    it('verifies the address with the mailed code and returns the user', async () => {
      const { email, code, user } = await newUser();
      const res = await t.http
        .post('/v1/user/email/verify')
        .send({ email: ` ${email.toUpperCase()}`, code })
        .expect(200);
      expect(res.body).toEqual({ user: { ...user, emailVerified: true } });
      // The code is spent.
      const again = await t.http.post('/v1/user/email/verify').send({ email, code }).expect(400);
      expect(again.body).toEqual(keyed('invalidEmailVerificationCode'));
    });

    it('refuses a wrong code: invalidEmailVerificationCode', async () => {
      const { email, code } = await newUser();
      const res = await t.http
        .post('/v1/user/email/verify')
        .send({ email, code: wrong(code) })
        .expect(400);
      expect(res.body).toEqual(keyed('invalidEmailVerificationCode'));
    });

    it('refuses an expired code', async () => {
      const { email, code, user } = await newUser();
      await t
        .get<DataSource>(DataSource)
        .query(
          `UPDATE email_verification_code SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
          [user.id],
        );
      const res = await t.http.post('/v1/user/email/verify').send({ email, code }).expect(400);
      expect(res.body).toEqual(keyed('invalidEmailVerificationCode'));
    });

    it('burns the code after 5 wrong guesses', async () => {
      const { email, code } = await newUser();
      for (let i = 0; i < 5; i++) {
        await t.http
          .post('/v1/user/email/verify')
          .send({ email, code: wrong(code) })
          .expect(400);
      }
      const res = await t.http.post('/v1/user/email/verify').send({ email, code }).expect(400);
      expect(res.body).toEqual(keyed('invalidEmailVerificationCode'));
    });

    it('answers an unknown address like a wrong code', async () => {
      const res = await t.http
        .post('/v1/user/email/verify')
        .send({ email: 'nobody@example.test', code: '123456' })
        .expect(400);
      expect(res.body).toEqual(keyed('invalidEmailVerificationCode'));
    });

    it('refuses a malformed code with {error, message}', async () => {
      const res = await t.http
        .post('/v1/user/email/verify')
        .send({ email: 'nobody@example.test', code: '12ab' })
        .expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
    });

    it('is refused cross-site', async () => {
      await t.http
        .post('/v1/user/email/verify')
        .set('Sec-Fetch-Site', 'cross-site')
        .send({ email: 'nobody@example.test', code: '123456' })
        .expect(403);
    });
  });

  describe('POST /v1/user/email/verify/send', () => {
    it('refuses a resend inside the cooldown, then mails a new code that replaces the old one', async () => {
      const { email, code: first } = await newUser();
      const early = await t.http.post('/v1/user/email/verify/send').send({ email }).expect(400);
      expect(early.body).toEqual(keyed('recentEmailVerification'));

      clock.advance(2100);
      const res = await t.http.post('/v1/user/email/verify/send').send({ email }).expect(200);
      expect(res.body).toEqual({ success: true });
      const second = codeOf(await smtp.nextMail(email));
      if (second !== first) {
        await t.http.post('/v1/user/email/verify').send({ email, code: first }).expect(400);
      }
      await t.http.post('/v1/user/email/verify').send({ email, code: second }).expect(200);
    });

    it('answers success without a mail for an unknown or verified address', async () => {
      await t.http
        .post('/v1/user/email/verify/send')
        .send({ email: 'ghost@example.test' })
        .expect(200);
      const { email } = await registerUser(t, { ip: randomIp() });
      await smtp.nextMail(email); // the registration mail
      clock.advance(2100);
      await t.http.post('/v1/user/email/verify/send').send({ email }).expect(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.hasUnread(email)).toBe(false);
    });

    it('refuses a malformed address with {error, message}', async () => {
      const res = await t.http
        .post('/v1/user/email/verify/send')
        .send({ email: 'nope' })
        .expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
    });
  });
});

describe('the sender of outgoing mail (MAIL_FROM)', () => {
  it.each([
    [
      'Ledgerline <no-reply@example.com>',
      'no-reply@example.com',
      /^From: Ledgerline <no-reply@example\.com>$/m,
    ],
    ['bare@example.com', 'bare@example.com', /^From: bare@example\.com$/m],
  ])('sends from %s, display name in the From header', async (mailFrom, envelope, header) => {
    const t = await createTestApp({ mail: true, env: { MAIL_FROM: mailFrom } });
    try {
      const { email } = await registerUser(t, { unverified: true });
      const mail = await t.smtp.nextMail(email);
      expect(mail.from).toBe(envelope);
      expect(mail.raw).toMatch(header);
    } finally {
      await t.close();
    }
  });
});
