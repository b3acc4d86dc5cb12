import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { UserRepository } from '../users/user.repository';

/** The domain of system accounts' addresses: `.invalid` is reserved, no mail can reach it. */
export const SYSTEM_EMAIL_DOMAIN = 'system.ledgerline.invalid';

/**
 * Accounts of the service's own, for actors without a person (a gateway hook's): made here only,
 * in the caller's transaction, never found by address (so no registration can claim one).
 */
@Injectable()
export class SystemAccounts {
  constructor(
    private readonly users: UserRepository,
    private readonly records: LegalRecordsService,
  ) {}

  /** A new system account named `name`; its id. */
  async create(tx: Tx, name: string): Promise<{ id: string; entityId: string }> {
    const id = randomUUID();
    const email = `system+${id}@${SYSTEM_EMAIL_DOMAIN}`;
    const records = await this.records.createPersonal(tx, { userId: id, email, name });
    await this.users.add(
      {
        id,
        email,
        passwordHash: null,
        name,
        emailVerified: false,
        twoFactorEnabled: false,
        referralCode: null,
        registrationIp: null,
        system: true,
        ...records,
      },
      tx,
    );
    return { id, entityId: records.entityId };
  }
}
