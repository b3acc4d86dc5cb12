import { randomInt } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { MailService } from '../../mail/mail.service';
import { User } from '../users/user.entity';
import { normalizeEmail } from '../users/user.view';
import { PasswordHasher } from './password-hasher';
import { TemporaryPassword } from './temporary-password.entity';

export const TEMPORARY_PASSWORD_LIFETIME_MS = 60 * 60 * 1000;
/** No look-alike characters (0/O, 1/l/I), 16 of them: about 93 bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const LENGTH = 16;

export const generateTemporaryPassword = () =>
  Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Password reset (`POST /v1/user/password/reset`): a mailed password for one login within 1 h. */
@Injectable()
export class TemporaryPasswordService {
  private readonly logger = new Logger(TemporaryPasswordService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly mail: MailService,
  ) {}

  async request(rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const password = generateTemporaryPassword();
    const passwordHash = await this.hasher.hash(password);
    await this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(User, {
        where: { email },
        lock: { mode: 'pessimistic_write' },
      });
      if (!user) throw new AppError('userNotFound');
      const active = await manager.existsBy(TemporaryPassword, {
        userId: user.id,
        usedAt: IsNull(),
        expiresAt: MoreThan(new Date()),
      });
      if (active) throw new AppError('existingActiveTempPassword');
      await manager.insert(TemporaryPassword, {
        userId: user.id,
        passwordHash,
        expiresAt: new Date(Date.now() + TEMPORARY_PASSWORD_LIFETIME_MS),
      });
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
    const candidates = await this.dataSource.getRepository(TemporaryPassword).findBy({
      userId,
      usedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
    for (const candidate of candidates) {
      if (!(await this.hasher.verify(candidate.passwordHash, password))) continue;
      return this.dataSource.transaction(async (manager) => {
        const result = await manager.update(
          TemporaryPassword,
          { id: candidate.id, usedAt: IsNull() },
          { usedAt: new Date() },
        );
        if (!result.affected) return undefined;
        // The mail reached the address: that verifies it.
        await manager.update(User, { id: userId }, { emailVerified: true });
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
    const record = await this.dataSource
      .getRepository(TemporaryPassword)
      .findOneBy({ id: temporaryPasswordId, userId });
    if (!record?.usedAt) return false;
    if (Date.now() - record.usedAt.getTime() > TEMPORARY_PASSWORD_LIFETIME_MS) return false;
    return this.hasher.verify(record.passwordHash, password);
  }
}
