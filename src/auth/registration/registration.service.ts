import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { DomainError, normalizeEmail } from '../../common';
import { Env } from '../../config';
import { UnitOfWork } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { PasswordHasher } from '../passwords/password-hasher';
import { UserRepository } from '../users/user.repository';
import { toUserView, UserView } from '../users/user.view';
import { EmailVerificationService } from '../verification/email-verification.service';
import { BlocklistService } from './blocklist.service';
import { registeredEvent } from './registered-event';

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
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly blocklist: BlocklistService,
    private readonly verification: EmailVerificationService,
    private readonly records: LegalRecordsService,
    private readonly env: Env,
  ) {}

  async register(input: Registration): Promise<UserView> {
    const email = normalizeEmail(input.email);
    // Hashing takes tens of milliseconds: do it before the transaction takes its locks.
    const passwordHash = await this.hasher.hash(input.password);
    const { user, code } = await this.uow
      .run(async (tx) => {
        await this.users.lockRegistrationsFrom(input.ip, tx);
        const fromIp = await this.users.countRegisteredFrom(input.ip, tx);
        if (fromIp >= this.env.REGISTRATION_IP_LIMIT) throw DomainError.keyed('ipLimit');
        await this.blocklist.assertAllowed(tx, email);
        if (await this.users.exists({ email }, tx)) throw DomainError.keyed('emailUnavailable');

        const id = randomUUID();
        const name = input.name?.trim() || null;
        const records = await this.records.createPersonal(tx, { userId: id, email, name });
        const user = await this.users.add(
          {
            id,
            email,
            passwordHash,
            name,
            emailVerified: false,
            twoFactorEnabled: false,
            referralCode: input.referralCode?.trim() || null,
            registrationIp: input.ip,
            ...records,
          },
          tx,
        );
        const code = await this.verification.issue(tx, id);
        await tx.record(registeredEvent(user, 'password'));
        return { user, code };
      })
      .catch((err: unknown) => {
        // Two registrations of one address at the same instant: the unique index decides.
        if (err instanceof QueryFailedError && (err as { code?: string }).code === '23505') {
          throw DomainError.keyed('emailUnavailable');
        }
        throw err;
      });
    await this.verification.send(email, code);
    return toUserView(user);
  }
}
