import { randomInt } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock, DomainError, normalizeEmail } from '../../common';
import { UnitOfWork } from '../../events';
import { MailService } from '../../mail';
import { UserRepository } from '../users/user.repository';
import { PasswordHasher } from './password-hasher';
import { TemporaryPasswordRepository } from './temporary-password.repository';

export const TEMPORARY_PASSWORD_LIFETIME_MS = 60 * 60 * 1000;
/** No look-alike characters (0/O, 1/l/I), 16 of them: about 93 bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const LENGTH = 16;

export const generateTemporaryPassword = () =>
  Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/**
 * Password reset (`POST /v1/user/password/reset`): a mailed password for one login within 1 h.
 * It is a password the user types, so it is stored as an argon2id hash like one.
 */
@Injectable()
export class TemporaryPasswordService {
  private readonly logger = new Logger(TemporaryPasswordService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly passwords: TemporaryPasswordRepository,
    private readonly hasher: PasswordHasher,
    private readonly mail: MailService,
    private readonly clock: Clock,
  ) {}

  async request(rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const password = generateTemporaryPassword();
    const passwordHash = await this.hasher.hash(password);
    await this.uow.run(async (tx) => {
      const user = await this.users.lock({ email }, tx);
      if (!user) throw DomainError.keyed('userNotFound');
      if (await this.passwords.hasActive(user.id, tx)) {
        throw DomainError.keyed('existingActiveTempPassword');
      }
      await this.passwords.insert(
        {
          userId: user.id,
          passwordHash,
          expiresAt: this.clock.after(TEMPORARY_PASSWORD_LIFETIME_MS),
        },
        tx,
      );
    });
    try {
      await this.mail.send({
        to: email,
        subject: 'Your Ledgerline temporary password',
        text:
          `Your temporary password is: ${password}\n\n` +
          'It works for one login within the next hour. Choose a new password right after.',
      });
    } catch (err) {
      this.logger.error(`temporary password mail to ${email} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Uses up the user's active temporary password when `password` is it; returns its id. Marking
   * it used is conditional (`used_at IS NULL`), so two simultaneous logins cannot both use it.
   */
  async consume(userId: string, password: string): Promise<string | undefined> {
    for (const candidate of await this.passwords.active(userId)) {
      if (!(await this.hasher.verify(candidate.passwordHash, password))) continue;
      return this.uow.run(async (tx) => {
        if (!(await this.passwords.markUsed(candidate.id, tx))) return undefined;
        // The mail reached the address: that verifies it.
        await this.users.update(userId, { emailVerified: true }, tx);
        return candidate.id;
      });
    }
    return undefined;
  }

  /**
   * Whether `password` is the temporary password this session logged in with, used within the
   * last hour: it then stands in for the current password when setting a new one.
   */
  async matchesSessionPassword(
    userId: string,
    temporaryPasswordId: string | undefined,
    password: string,
  ): Promise<boolean> {
    if (!temporaryPasswordId) return false;
    const record = await this.passwords.find(temporaryPasswordId, userId);
    if (!record?.usedAt) return false;
    if (this.clock.nowMs() - record.usedAt.getTime() > TEMPORARY_PASSWORD_LIFETIME_MS) return false;
    return this.hasher.verify(record.passwordHash, password);
  }
}
