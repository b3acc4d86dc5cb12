import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { MagicLinkToken } from '../../src/auth/magic-link/magic-link-token.entity';
import {
  MAGIC_LINK_LIFETIME_MS,
  MagicLinkService,
} from '../../src/auth/magic-link/magic-link.service';
import { SessionService } from '../../src/auth/sessions/session.service';
import { DomainError } from '../../src/common';
import { AuthModule } from '../../src/auth';
import { createServiceTest, ServiceTest } from '../support/service';
import { createUser } from '../support/users';

/**
 * Magic-link login (spec 3 and 5.4): no route serves it, so it is tested at the service, on the
 * real database and the real SMTP client (the fake SMTP server).
 */
describe('MagicLinkService', () => {
  let t: ServiceTest;
  let links: MagicLinkService;
  let loggedIn: string[];
  beforeAll(async () => {
    t = await createServiceTest(AuthModule, { mail: true });
    links = t.get(MagicLinkService);
    // The session layer needs an HTTP request; record who would have been logged in.
    loggedIn = [];
    jest
      .spyOn(t.get<SessionService>(SessionService), 'logIn')
      .mockImplementation(async (_req: Request, userId: string) => void loggedIn.push(userId));
  });
  afterAll(() => t.close());

  const tokenOf = (text: string) => /token=([0-9a-f]+)/.exec(text)![1];
  /** The next sign-in link mailed to `email` (registration mailed its verification code first). */
  const nextLink = async (email: string) => {
    for (;;) {
      const mail = await t.smtp.nextMail(email);
      if (/sign-in link/.test(mail.subject)) return mail;
    }
  };
  const tokens = () => t.get<DataSource>(DataSource).getRepository(MagicLinkToken);

  it('mails a 32-byte hex token valid 15 minutes and stores only its digest', async () => {
    const { user, email } = await createUser(t);
    const before = Date.now();
    await links.request(`  ${email.toUpperCase()} `);
    const mail = await nextLink(email);
    const token = tokenOf(mail.text);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const [stored] = await tokens().findBy({ userId: user.id });
    expect(stored.tokenDigest).not.toContain(token);
    const life = stored.expiresAt.getTime() - before;
    expect(life).toBeGreaterThanOrEqual(MAGIC_LINK_LIFETIME_MS - 1000);
    expect(life).toBeLessThan(MAGIC_LINK_LIFETIME_MS + 1000);
  });

  it('answers an unknown address the same, storing nothing', async () => {
    const count = await tokens().count();
    await expect(links.request('nobody-at-all@example.test')).resolves.toBeUndefined();
    expect(await tokens().count()).toBe(count);
  });

  it('logs in once with a fresh token and returns the user', async () => {
    const { user, email } = await createUser(t);
    await links.request(email);
    const token = tokenOf((await nextLink(email)).text);
    const view = await links.logIn({} as Request, token);
    expect(view.id).toBe(user.id);
    expect(loggedIn).toContain(user.id);
    const again = await links.logIn({} as Request, token).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(DomainError);
    expect((again as DomainError).status).toBe(401);
  });

  it('refuses an expired token, an unknown one and a malformed one', async () => {
    const { user, email } = await createUser(t);
    await links.request(email);
    const token = tokenOf((await nextLink(email)).text);
    await tokens().update({ userId: user.id }, { expiresAt: new Date(Date.now() - 1) });
    for (const bad of [token, 'f'.repeat(64), 'not-a-token']) {
      await expect(links.consume(bad)).rejects.toMatchObject({ status: 401 });
    }
  });

  it('lets exactly one of two simultaneous uses through', async () => {
    const { email } = await createUser(t);
    await links.request(email);
    const token = tokenOf((await nextLink(email)).text);
    const results = await Promise.allSettled([links.consume(token), links.consume(token)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});
