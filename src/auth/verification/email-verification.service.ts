import { randomInt } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { constantTimeEqual, SecretBox } from '../../common/crypto/secret-box';
import { Env } from '../../config/env.schema';
import { MailService } from '../../mail/mail.service';
import { User } from '../users/user.entity';
import { normalizeEmail, toUserView, UserView } from '../users/user.view';
import { EmailVerificationCode } from './email-verification-code.entity';

export const CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Wrong guesses a code survives; then it is gone and a new one must be mailed. */
export const CODE_MAX_FAILED_ATTEMPTS = 5;
const DIGEST_PURPOSE = 'email-verification-code';

/** Six-digit codes proving an address: mailed, stored as keyed digests, 24 h, one at a time. */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger(EmailVerificationService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly mail: MailService,
    private readonly env: Env,
  ) {}

  /** Replaces the user's code with a new one inside the caller's transaction; returns it. */
  async issue(manager: EntityManager, userId: string): Promise<string> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await manager.delete(EmailVerificationCode, { userId });
    await manager.insert(EmailVerificationCode, {
      userId,
      codeDigest: this.box.digest(DIGEST_PURPOSE, code),
      expiresAt: new Date(Date.now() + CODE_LIFETIME_MS),
    });
    return code;
  }

  /** Mails the code; a failure is logged, not thrown (the user can ask for another). */
  async send(email: string, code: string): Promise<void> {
    try {
      await this.mail.send({
        to: email,
        subject: 'Your Ledgerline verification code',
        text: `Your Ledgerline verification code is ${code}. It expires in 24 hours.`,
      });
    } catch (err) {
      this.logger.error(`verification mail to ${email} failed: ${(err as Error).message}`);
    }
  }

  /**
   * `POST /v1/user/email/verify/send`: a new code, unless one was mailed less than
   * EMAIL_VERIFICATION_LIMIT_SECONDS ago. Unknown and already verified addresses get the same
   * silent success, so the route does not reveal who has an account.
   */
  async resend(rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const code = await this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(User, {
        where: { email },
        lock: { mode: 'pessimistic_write' },
      });
      if (!user || user.emailVerified) return null;
      const last = await manager.findOne(EmailVerificationCode, {
        where: { userId: user.id },
        order: { created: 'DESC' },
      });
      const cooldownMs = this.env.EMAIL_VERIFICATION_LIMIT_SECONDS * 1000;
      if (last && Date.now() - last.created.getTime() < cooldownMs) {
        throw new AppError('recentEmailVerification');
      }
      return this.issue(manager, user.id);
    });
    if (code) await this.send(email, code);
  }

  /** `POST /v1/user/email/verify`: marks the address verified when the code is right and alive. */
  async verify(rawEmail: string, code: string): Promise<UserView> {
    const email = normalizeEmail(rawEmail);
    const outcome = await this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(User, {
        where: { email },
        lock: { mode: 'pessimistic_write' },
      });
      if (!user) return null;
      const stored = await manager.findOne(EmailVerificationCode, {
        where: { userId: user.id },
        order: { created: 'DESC' },
      });
      if (!stored || stored.expiresAt.getTime() <= Date.now()) return null;
      if (!constantTimeEqual(stored.codeDigest, this.box.digest(DIGEST_PURPOSE, code))) {
        // Counted (and committed) before the refusal, so guessing is bounded.
        if (stored.failedAttempts + 1 >= CODE_MAX_FAILED_ATTEMPTS) {
          await manager.delete(EmailVerificationCode, { id: stored.id });
        } else {
          await manager.increment(EmailVerificationCode, { id: stored.id }, 'failedAttempts', 1);
        }
        return null;
      }
      await manager.delete(EmailVerificationCode, { userId: user.id });
      user.emailVerified = true;
      return toUserView(await manager.save(user));
    });
    if (!outcome) throw new AppError('invalidEmailVerificationCode');
    return outcome;
  }
}
