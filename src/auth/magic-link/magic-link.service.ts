import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { HttpError } from '../../common/errors/app-error';
import { SecretBox } from '../../common/crypto/secret-box';
import { Env } from '../../config/env.schema';
import { MailService } from '../../mail/mail.service';
import { SessionService } from '../sessions/session.service';
import { UsersService } from '../users/users.service';
import { normalizeEmail, UserView } from '../users/user.view';
import { MagicLinkStore } from './magic-link.store';

export const MAGIC_LINK_LIFETIME_MS = 15 * 60 * 1000;
const DIGEST_PURPOSE = 'magic-link';

/**
 * Magic-link login (spec 3 and 5.4). The logic is here and unit-tested; no route serves it (spec
 * 4.1: the endpoints are not registered). A token is 32 random bytes in hex, stored only as a keyed
 * digest, valid 15 minutes, usable once.
 */
@Injectable()
export class MagicLinkService {
  private readonly logger = new Logger(MagicLinkService.name);

  constructor(
    private readonly store: MagicLinkStore,
    private readonly box: SecretBox,
    private readonly mail: MailService,
    private readonly sessions: SessionService,
    private readonly users: UsersService,
    private readonly env: Env,
  ) {}

  /** Always resolves, whether or not the address has an account (no enumeration). */
  async request(rawEmail: string): Promise<void> {
    try {
      const email = normalizeEmail(rawEmail);
      const userId = await this.store.findUserIdByEmail(email);
      if (!userId) return;
      const token = randomBytes(32).toString('hex');
      await this.store.save({
        userId,
        tokenDigest: this.box.digest(DIGEST_PURPOSE, token),
        expiresAt: new Date(Date.now() + MAGIC_LINK_LIFETIME_MS),
      });
      const link = `${this.env.FRONTEND_URL}/login/magic?token=${token}`;
      await this.mail.send({
        to: email,
        subject: 'Your Ledgerline sign-in link',
        text: `Sign in to Ledgerline with this link (valid 15 minutes, once):\n${link}`,
      });
    } catch (err) {
      this.logger.error(`magic link request failed: ${(err as Error).message}`);
    }
  }

  /** The user id of an unused, unexpired token, which is used up; 401 otherwise. */
  async consume(token: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(token)) throw HttpError.unauthorized();
    const userId = await this.store.consume(this.box.digest(DIGEST_PURPOSE, token), new Date());
    if (!userId) throw HttpError.unauthorized();
    return userId;
  }

  /** Verification: consumes the token, starts a logged-in session, returns the user. */
  async logIn(req: Request, token: string): Promise<UserView> {
    const userId = await this.consume(token);
    const user = await this.users.view(userId);
    await this.sessions.logIn(req, userId);
    return user;
  }
}
