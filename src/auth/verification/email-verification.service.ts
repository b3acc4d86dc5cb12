import { Injectable, Logger } from '@nestjs/common';
import { Clock, DomainError, normalizeEmail, TokenService } from '../../common';
import { Env } from '../../config';
import { InTransaction } from '../../database';
import { UnitOfWork } from '../../events';
import { MailService } from '../../mail';
import { UserRepository } from '../users/user.repository';
import { toUserView, UserView } from '../users/user.view';
import { EmailVerificationCodeRepository } from './email-verification-code.repository';

export const CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Wrong guesses a code survives; then it is gone and a new one must be mailed. */
export const CODE_MAX_FAILED_ATTEMPTS = 5;
const CODE_PURPOSE = 'email-verification-code';

/** Six-digit codes proving an address: mailed, stored as keyed digests, 24 h, one at a time. */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger(EmailVerificationService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly codes: EmailVerificationCodeRepository,
    private readonly tokens: TokenService,
    private readonly mail: MailService,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  /** Replaces the user's code with a new one inside the caller's transaction; returns it. */
  async issue(tx: InTransaction, userId: string): Promise<string> {
    const code = this.tokens.issueCode(CODE_PURPOSE, CODE_LIFETIME_MS);
    await this.codes.replace({ userId, codeDigest: code.digest, expiresAt: code.expiresAt }, tx);
    return code.value;
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
    const code = await this.uow.run(async (tx) => {
      const user = await this.users.lock({ email }, tx);
      if (!user || user.emailVerified) return null;
      const last = await this.codes.latest(user.id, tx);
      const cooldownMs = this.env.EMAIL_VERIFICATION_LIMIT_SECONDS * 1000;
      if (last && this.clock.nowMs() - last.created.getTime() < cooldownMs) {
        throw DomainError.keyed('recentEmailVerification');
      }
      return this.issue(tx, user.id);
    });
    if (code) await this.send(email, code);
  }

  /** `POST /v1/user/email/verify`: marks the address verified when the code is right and alive. */
  async verify(rawEmail: string, code: string): Promise<UserView> {
    const email = normalizeEmail(rawEmail);
    const outcome = await this.uow.run(async (tx) => {
      const user = await this.users.lock({ email }, tx);
      if (!user) return null;
      const stored = await this.codes.latest(user.id, tx);
      if (!stored || !this.tokens.isLive(stored.expiresAt)) return null;
      if (!this.tokens.matches(stored.codeDigest, this.tokens.codeDigest(CODE_PURPOSE, code))) {
        // Counted (and committed) before the refusal, so guessing is bounded.
        if (stored.failedAttempts + 1 >= CODE_MAX_FAILED_ATTEMPTS) {
          await this.codes.delete({ id: stored.id }, tx);
        } else {
          await this.codes.countFailure(stored.id, tx);
        }
        return null;
      }
      await this.codes.delete({ userId: user.id }, tx);
      user.emailVerified = true;
      return toUserView(await this.users.save(user, tx));
    });
    if (!outcome) throw DomainError.keyed('invalidEmailVerificationCode');
    return outcome;
  }
}
