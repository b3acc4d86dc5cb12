import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { SecretBox } from '../../common/crypto/secret-box';
import type { Env } from '../../config/env.schema';
import type { Mail, MailService } from '../../mail/mail.service';
import type { SessionService } from '../sessions/session.service';
import type { UsersService } from '../users/users.service';
import type { UserView } from '../users/user.view';
import { MAGIC_LINK_LIFETIME_MS, MagicLinkService } from './magic-link.service';
import { MagicLinkStore } from './magic-link.store';

class MemoryStore extends MagicLinkStore {
  users = new Map([['ada@example.test', 'user-1']]);
  tokens: { userId: string; tokenDigest: string; expiresAt: Date; usedAt: Date | null }[] = [];
  async findUserIdByEmail(email: string) {
    return this.users.get(email) ?? null;
  }
  async save(token: { userId: string; tokenDigest: string; expiresAt: Date }) {
    this.tokens.push({ ...token, usedAt: null });
  }
  async consume(digest: string, now: Date) {
    const t = this.tokens.find((x) => x.tokenDigest === digest && !x.usedAt && x.expiresAt > now);
    if (!t) return null;
    t.usedAt = now;
    return t.userId;
  }
}

describe('MagicLinkService', () => {
  let store: MemoryStore;
  let mails: Mail[];
  let loggedIn: string[];
  let service: MagicLinkService;

  beforeEach(() => {
    store = new MemoryStore();
    mails = [];
    loggedIn = [];
    const mail = { send: async (m: Mail) => void mails.push(m) } as unknown as MailService;
    const sessions = {
      logIn: async (_req: Request, userId: string) => void loggedIn.push(userId),
    } as unknown as SessionService;
    const users = {
      view: async (id: string) => ({ id, email: 'ada@example.test' }) as UserView,
    } as unknown as UsersService;
    const env = { FRONTEND_URL: 'http://app.test' } as Env;
    service = new MagicLinkService(
      store,
      new SecretBox(randomBytes(32)),
      mail,
      sessions,
      users,
      env,
    );
  });
  afterEach(() => jest.useRealTimers());

  const tokenOf = (mail: Mail) => /token=([0-9a-f]+)/.exec(mail.text)![1];

  it('mails a 32-byte hex token and stores only its digest, valid 15 minutes', async () => {
    const before = Date.now();
    await service.request('  Ada@Example.test ');
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('ada@example.test');
    const token = tokenOf(mails[0]);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(mails[0].text).toContain(`http://app.test/login/magic?token=${token}`);
    expect(store.tokens).toHaveLength(1);
    expect(store.tokens[0].tokenDigest).not.toContain(token);
    const life = store.tokens[0].expiresAt.getTime() - before;
    expect(life).toBeGreaterThanOrEqual(MAGIC_LINK_LIFETIME_MS);
    expect(life).toBeLessThan(MAGIC_LINK_LIFETIME_MS + 1000);
  });

  it('answers success for an unknown address without mailing or storing anything', async () => {
    await expect(service.request('nobody@example.test')).resolves.toBeUndefined();
    expect(mails).toHaveLength(0);
    expect(store.tokens).toHaveLength(0);
  });

  it('still answers success when mailing fails', async () => {
    (service as unknown as { mail: MailService }).mail = {
      send: async () => {
        throw new Error('smtp down');
      },
    } as unknown as MailService;
    await expect(service.request('ada@example.test')).resolves.toBeUndefined();
  });

  it('logs in once with a fresh token and returns the user', async () => {
    await service.request('ada@example.test');
    const token = tokenOf(mails[0]);
    const user = await service.logIn({} as Request, token);
    expect(user.id).toBe('user-1');
    expect(loggedIn).toEqual(['user-1']);
    await expect(service.logIn({} as Request, token)).rejects.toMatchObject({ status: 401 });
    expect(loggedIn).toEqual(['user-1']);
  });

  it('refuses an expired token', async () => {
    jest.useFakeTimers({ now: Date.now() });
    await service.request('ada@example.test');
    jest.setSystemTime(Date.now() + MAGIC_LINK_LIFETIME_MS + 1);
    await expect(service.consume(tokenOf(mails[0]))).rejects.toMatchObject({ status: 401 });
  });

  it('accepts a token just before expiry', async () => {
    jest.useFakeTimers({ now: Date.now() });
    await service.request('ada@example.test');
    jest.setSystemTime(Date.now() + MAGIC_LINK_LIFETIME_MS - 1000);
    await expect(service.consume(tokenOf(mails[0]))).resolves.toBe('user-1');
  });

  it('refuses unknown and malformed tokens', async () => {
    await expect(service.consume('f'.repeat(64))).rejects.toMatchObject({ status: 401 });
    await expect(service.consume('not-a-token')).rejects.toMatchObject({ status: 401 });
  });
});
