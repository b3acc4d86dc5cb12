import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { Clock, DomainError, normalizeEmail, TokenService } from '../../common';
import { Env } from '../../config';
import { MailService } from '../../mail';
import { SessionService } from '../sessions/session.service';
import { UserRepository } from '../users/user.repository';
import { UsersDirectory } from '../users/users.directory';
import { UserView } from '../users/user.view';
import { MagicLinkTokenRepository } from './magic-link-token.repository';

export const MAGIC_LINK_LIFETIME_MS = 15 * 60 * 1000;

/**
 * Magic-link login (spec 3 and 5.4). The logic is here and tested against the database; no route
 * serves it (spec 4.1: the endpoints are not registered). A token is 32 random bytes in hex,
 * stored only as its SHA-256, valid 15 minutes, usable once.
 */
@Injectable()
export class MagicLinkService {
  private readonly logger = new Logger(MagicLinkService.name);

  constructor(
    private readonly tokens: MagicLinkTokenRepository,
    private readonly users: UserRepository,
    private readonly directory: UsersDirectory,
    private readonly tokenService: TokenService,
    private readonly mail: MailService,
    private readonly sessions: SessionService,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  /** Always resolves, whether or not the address has an account (no enumeration). */
  async request(rawEmail: string): Promise<void> {
    try {
      const email = normalizeEmail(rawEmail);
      const user = await this.users.find({ email });
      if (!user) return;
      const token = this.tokenService.issueToken(MAGIC_LINK_LIFETIME_MS, 'hex');
      await this.tokens.insert({
        userId: user.id,
        tokenDigest: token.digest,
        expiresAt: token.expiresAt,
      });
      const link = `${this.env.FRONTEND_URL}/login/magic?token=${token.value}`;
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
    if (!/^[0-9a-f]{64}$/.test(token)) throw DomainError.unauthorized('invalid or expired link');
    const userId = await this.tokens.consume(
      this.tokenService.tokenDigest(token),
      this.clock.now(),
    );
    if (!userId) throw DomainError.unauthorized('invalid or expired link');
    return userId;
  }

  /** Verification: consumes the token, starts a logged-in session, returns the user. */
  async logIn(req: Request, token: string): Promise<UserView> {
    const userId = await this.consume(token);
    const user = await this.directory.view(userId);
    await this.sessions.logIn(req, userId);
    return user;
  }
}
