import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { Env } from '../../config/env.schema';
import { PersonalRecordsService } from '../../organizations/personal-records.service';
import { PasswordHasher } from '../passwords/password-hasher';
import { User } from '../users/user.entity';
import { normalizeEmail, toUserView, UserView } from '../users/user.view';
import { EmailVerificationService } from '../verification/email-verification.service';
import { BlocklistService } from './blocklist.service';

export interface Registration {
  email: string;
  password: string;
  name?: string;
  referralCode?: string;
  ip: string;
}

/** `POST /v1/user`: a new, unverified account with its personal entity and profile. */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly blocklist: BlocklistService,
    private readonly verification: EmailVerificationService,
    private readonly personal: PersonalRecordsService,
    private readonly env: Env,
  ) {}

  async register(input: Registration): Promise<UserView> {
    const email = normalizeEmail(input.email);
    // Hashing takes tens of milliseconds: do it before the transaction takes its locks.
    const passwordHash = await this.hasher.hash(input.password);
    const { user, code } = await this.dataSource
      .transaction(async (manager) => {
        // One registration per IP at a time, so the count below cannot be raced past the limit.
        await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `registration:${input.ip}`,
        ]);
        const fromIp = await manager.countBy(User, { registrationIp: input.ip });
        if (fromIp >= this.env.REGISTRATION_IP_LIMIT) throw new AppError('ipLimit');
        await this.blocklist.assertAllowed(manager, email);
        if (await manager.existsBy(User, { email })) throw new AppError('emailUnavailable');

        const id = randomUUID();
        const name = input.name?.trim() || null;
        const records = await this.personal.createForUser(manager, { userId: id, email, name });
        const user = await manager.save(
          manager.create(User, {
            id,
            email,
            passwordHash,
            name,
            emailVerified: false,
            twoFactorEnabled: false,
            referralCode: input.referralCode?.trim() || null,
            registrationIp: input.ip,
            ...records,
          }),
        );
        const code = await this.verification.issue(manager, id);
        return { user, code };
      })
      .catch((err: unknown) => {
        // Two registrations of one address at the same instant: the unique index decides.
        if (err instanceof QueryFailedError && (err as { code?: string }).code === '23505') {
          throw new AppError('emailUnavailable');
        }
        throw err;
      });
    await this.verification.send(email, code);
    return toUserView(user);
  }
}
